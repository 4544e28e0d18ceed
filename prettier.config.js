// The code base's own style: single quotes, semicolons, trailing commas, 2 spaces, long lines.
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  tabWidth: 2,
  arrowParens: 'always',
};
