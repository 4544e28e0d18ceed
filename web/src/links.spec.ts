import { httpHref } from './links';

describe(httpHref.name, () => {
  it.each(['https://aws.amazon.com/ec2/pricing/', 'http://example.org/a?b=c#d'])('links %s', (url) => {
    expect(httpHref(url)).toBe(url);
  });

  // What a browser would run or open: each is text, never an href. (A tab inside "java\tscript:"
  // is dropped by the URL parser, as a browser drops it.)
  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:x',
    'file:///etc/passwd',
    'A1: an article',
    '',
    null,
    undefined,
  ])('does not link %j', (value) => {
    expect(httpHref(value)).toBeUndefined();
  });
});
