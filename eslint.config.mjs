// ESLint for the TypeScript sources, tests and benchmarks. Run by `npm run lint:code` with dependency-cruiser
// (the layering, .dependency-cruiser.cjs) and `prettier --check` (the formatting, .prettierrc.json).
//
// typescript-eslint's `recommended` set, not the type-checked one: it needs no type information, so a run
// takes seconds, not a full program build per file. The layout is Prettier's business: eslint-config-prettier
// comes last and turns off every rule that would fight it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The shipped code (not tests, benchmarks or fixtures): held to the size limits below. */
const SOURCE = ['core/src/**/*.ts', 'server/src/**/*.ts', 'cli/src/**/*.ts', 'client/src/**/*.ts', 'protocol/src/**/*.ts'];

export default tseslint.config(
  {
    // Build output, bundles and data. The fuzz corpus and fio fixtures are inputs, byte for byte.
    ignores: ['out/**', 'dist/**', '**/*.generated.ts', 'node_modules/**', '**/node_modules/**', 'test/fuzz-corpus/**', 'test/fixtures/fio/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // An unused variable is a bug or dead code; a leading underscore says "unused on purpose" (a callback's
      // parameter that must be there for the ones after it, a destructured field left out).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // == only against null (which also catches undefined); elsewhere === so no coercion surprises.
      eqeqeq: ['error', 'smart'],
      // Off: this code validates and escapes text formats (YAML scalars, fio job files, terminal output), where a
      // regex over control characters such as /[\x00-\x1f]/ is the point, not a slip; the rule cannot tell the two
      // apart and would need a disable comment at each of them.
      'no-control-regex': 'off',
    },
  },
  {
    // Size limits for the shipped code: a module over 400 lines of code, or a function over 80, does too many
    // things to review or test on its own. Blank lines and comments do not count: explaining code is not
    // penalised. Tests (one describe per feature, with its fixtures) and benchmarks are exempt.
    files: SOURCE,
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The stand-in language servers the CLI tests start: plain CommonJS scripts run by node.
    files: ['test/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      // require() is the module system of these CommonJS scripts, not a TypeScript import written the old way.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  prettier,
);
