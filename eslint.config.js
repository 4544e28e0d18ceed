// Type-aware lint: the rules that catch what the compiler does not (floating and misused
// promises, non-null assertions, a committed .only or .skip). Formatting is Prettier's alone
// (eslint-config-prettier, last, turns off every rule that would fight it).
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import jest from 'eslint-plugin-jest';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'coverage/',
      'src/generated/',
      '.data/',
      'bench/results/',
      'examples/clients/gql/',
      'examples/clients/openapi.d.ts',
      'web/src/graphql-env.d.ts',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['prisma.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // recommendedTypeChecked has no-floating-promises and no-misused-promises; these add to it.
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // A switch over a closed set (pricing models, price kinds...) names every member, so adding one
      // shows every switch that misses it; a default clause still counts.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Model.of and the like are static and never use `this`; passing them to map() is safe.
      '@typescript-eslint/unbound-method': ['error', { ignoreStatic: true }],
      // Decimal prints itself exactly; that is how prices reach messages.
      '@typescript-eslint/restrict-template-expressions': ['error', { allow: [{ from: 'package', package: 'decimal.js', name: 'Decimal' }] }],
      // Passing on a caught error as it came is not the mistake this rule is about.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // An async method that implements a Promise-returning interface (in-memory repositories,
      // Apollo plugin hooks) is the honest signature; dropping `async` would turn a throw into a
      // synchronous one.
      '@typescript-eslint/require-await': 'off',
      // Every hit is a deliberate String(x) of a value from a driver, the YAML or CSV parser, or
      // GraphQL extensions, where "[object Object]" is the accepted fallback.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // A function a reader can hold in view: split longer ones by concern (docs/architecture.md).
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.ts', 'src/generated/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    extends: [jest.configs['flat/recommended']],
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      // describe(Thing.name) is the house style: the title follows a rename.
      'jest/valid-title': ['error', { ignoreTypeOfDescribeName: true }],
      // Helpers that assert: expectFailure, expectProblem, checkRest, checkGraphql...
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*', 'check*'] }],
      'jest/no-standalone-expect': ['error', { additionalTestBlockFunctions: ['itAsRoot'] }],
      // Fuzz and property tests assert on whichever outcome a random input produced.
      'jest/no-conditional-expect': 'off',
      // supertest's res.body and JSON.parse are `any`: typing every response body the tests read
      // would be hundreds of casts that check nothing.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
