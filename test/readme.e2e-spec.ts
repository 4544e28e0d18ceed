// The README is the front door: short, and every example in it works. It stays under 250 lines,
// every file an example sends exists, and each `curl` line of it is sent to the service on the
// bundled catalog, as a newcomer would paste it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createTestServer, type TestServer } from './setup/test-app.js';

interface Example {
  line: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  bodyFile: string | null;
}

/** The `curl` lines of the README's code blocks, read with the few options they use. */
function examplesOf(readme: string): Example[] {
  return readme
    .split('\n')
    .filter((l) => l.startsWith('curl '))
    .map((line) => {
      const words = [...line.matchAll(/'[^']*'|\S+/g)].map((m) => m[0].replace(/^'|'$/g, ''));
      const example: Example = { line, method: 'GET', path: '', headers: {}, bodyFile: null };
      for (let i = 1; i < words.length; i++) {
        const word = words[i] ?? '';
        if (word === '-X') example.method = (words[++i] ?? 'GET') as Example['method'];
        else if (word === '-H') {
          const [name = '', ...value] = (words[++i] ?? '').split(':');
          example.headers[name.trim()] = value.join(':').trim();
        } else if (word === '-d') example.bodyFile = (words[++i] ?? '').replace(/^@/, '');
        else if (word === '-i') continue;
        else example.path = word.replace(/^localhost:3000/, '');
      }
      return example;
    });
}

describe('README (e2e, bundled catalog)', () => {
  let t: TestServer;
  let readme: string;
  beforeAll(async () => {
    t = await createTestServer();
    readme = await readFile('README.md', 'utf8');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('fits on a few screens', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('sends only files that ship in the repository', () => {
    const examples = examplesOf(readme);
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const e of examples.filter((x) => x.bodyFile)) expect([e.bodyFile, existsSync(e.bodyFile ?? '')]).toEqual([e.bodyFile, true]);
  });

  it('answers every curl line of it with 200 and a body', async () => {
    for (const e of examplesOf(readme)) {
      let req = e.method === 'POST' ? t.http().post(e.path) : t.http().get(e.path);
      for (const [name, value] of Object.entries(e.headers)) req = req.set(name, value);
      if (e.bodyFile) req = req.send(await readFile(e.bodyFile, 'utf8'));
      const res = await req;
      expect([e.line, res.status]).toEqual([e.line, 200]);
      expect(res.text.length).toBeGreaterThan(50);
      if (e.path === '/graphql') expect(res.body.errors).toBeUndefined();
    }
  });
});
