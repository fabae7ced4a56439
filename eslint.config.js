import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/', 'dist-cli/', 'node_modules/', 'test-results/', 'playwright-report/', 'scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Barrels list their exports by hand (STYLE.md §2), so a module's public surface is visible and greppable.
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'List named exports by hand; no `export *`.' },
      ],
    },
  },
  {
    files: ['src/ui/**/*.tsx', 'src/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['cli/**/*.mjs', 'e2e/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
  {
    // The core is pure: no DOM, no timers, no Node built-ins, no UI or worker imports.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'sessionStorage', 'setTimeout', 'setInterval', 'navigator', 'process'],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The core runs in browsers and workers: no Node built-ins.' },
            { group: ['**/ui/**', '**/workers/**', 'react', 'react-dom'], message: 'The core never imports the UI or the workers.' },
          ],
        },
      ],
    },
  },
  {
    // The UI reaches the core only through its public surface.
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx', 'workers/**/*.ts', 'cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/core/*/**', '!**/core/index.ts'], message: 'Import the core through src/core/index.ts.' }] },
      ],
    },
  },
);
