// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const bannedMarkup = [
  {
    selector: "MemberExpression[property.name='innerHTML']",
    message: 'Page text is data: render it with Preact as text, never as markup.',
  },
  {
    selector: "MemberExpression[property.name='outerHTML']",
    message: 'Page text is data: render it with Preact as text, never as markup.',
  },
  {
    selector: "CallExpression[callee.property.name='insertAdjacentHTML']",
    message: 'Page text is data: render it with Preact as text, never as markup.',
  },
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'dangerouslySetInnerHTML is banned: build nodes, never markup strings.',
  },
  {
    selector: "Property[key.name='dangerouslySetInnerHTML']",
    message: 'dangerouslySetInnerHTML is banned: build nodes, never markup strings.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '.output/',
      '.output-*/',
      '.wxt/',
      'node_modules/',
      'test-results/',
      'test-results-*/',
      'playwright-report/',
      'bench/results.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      'no-restricted-syntax': ['error', ...bannedMarkup],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The service worker has no window or document: code that runs there must not reach for them.
    files: ['entrypoints/background.ts', 'lib/**/*.ts'],
    // Pages run in documents; navigation.ts is also imported by the worker, so it stays checked.
    ignores: ['lib/finance/**', 'lib/pages/**', '!lib/pages/navigation.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'window',
          message: 'Background code runs in a service worker: there is no window. Use globalThis or self.',
        },
        { name: 'document', message: 'Background code runs in a service worker: there is no document.' },
        { name: 'localStorage', message: 'Not available in a service worker; use lib/store.' },
      ],
    },
  },
  {
    // The logger is the one place that may write to the console.
    files: ['lib/log/**', 'sandbox/**', 'scripts/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['tests/**', 'bench/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
