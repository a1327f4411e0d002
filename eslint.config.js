// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';
import i18n from './build/eslint-i18n.js';
import layers from './build/eslint-layers.js';

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

/** Only lib/messaging reads a message's or a port's sender (STYLE.md: messaging). */
const senderReads = [
  {
    selector: "MemberExpression[property.name='sender']",
    message:
      'Only lib/messaging reads `sender`: classify it there (classifySender, classifyPort) and pass the result.',
  },
  {
    selector: "MemberExpression[computed=true][property.value='sender']",
    message:
      'Only lib/messaging reads `sender`: classify it there (classifySender, classifyPort) and pass the result.',
  },
  {
    selector: "ObjectPattern > Property[key.name='sender']",
    message:
      'Only lib/messaging reads `sender`: classify it there (classifySender, classifyPort) and pass the result.',
  },
];

/** lib/ is by domain and knows nothing of the pages, except where each page lives (navigation.ts). */
const onlyNavigation = [
  {
    regex: '^@/lib/pages/(?!navigation$)',
    message: 'Only lib/pages/navigation.ts (page addresses and openers) may be imported outside lib/pages.',
  },
  { regex: '^(\\.\\./)+pages(/|$)', message: 'Import page addresses as @/lib/pages/navigation.' },
];

/** The switchboard imports the domains, never the reverse (STYLE.md: layout). */
const notTheSwitchboard = [
  {
    regex: '^(@/lib/background|(\\.\\./)+background)(/|$)',
    message:
      'lib/background is the switchboard: it imports the domains, never the reverse. Move what you need into the domain folder.',
  },
];

/** lib/writes owns a write's lifecycle: only it may change an outbox record (lib/writes/outbox.ts). */
const onlyTheOwnerWrites = [
  {
    regex: '^(@/lib/writes/outbox|(\\.\\./)+writes/outbox|\\./outbox)$',
    importNames: ['addDraft', 'applyStep'],
    message:
      'Only lib/writes changes a draft (its state machine): call lib/writes/owner.ts, or send a message to the worker.',
  },
];

/**
 * The folders of lib/, bottom first (README: Architecture). A file imports its own folder and the
 * folders below it, never one above it or beside it (a list is folders side by side), types
 * included, so no cycle runs between folders. A root file of lib/ counts as a folder (digest.ts).
 */
export const LIB_LAYERS = [
  'contract',
  ['digest', 'http', 'zodConfig'],
  'i18n',
  // Above i18n: a text that holds the key is withheld with one sentence in the UI language (lib/log).
  'log',
  'finance',
  'store',
  'discovery',
  'api',
  ['mcp', 'backtests', 'catalysts'],
  'events',
  'messaging',
  // Pure Preact components: they render what pages hand them, and import nothing above this.
  'components',
  'writes',
  'pages',
  'background',
];

/** One folder per extension page under lib/pages (STYLE.md: layout). */
const PAGES = ['popup', 'options', 'confirm', 'sidepanel', 'offer'];

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
  // Everything the service sends goes through regexes somewhere: none may backtrack or move super-linearly.
  regexp.configs['flat/recommended'],
  {
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'certain' }],
      'regexp/no-super-linear-move': [
        'error',
        { report: 'certain', ignoreSticky: false, ignorePartial: false },
      ],
      // Readability, not time: its fixes would touch a dozen files other work is editing. Left for later.
      'regexp/no-unused-capturing-group': 'off',
    },
  },
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
    // Everything shipped, except the messaging module, which is where a sender is classified.
    files: ['lib/**', 'components/**', 'entrypoints/**'],
    ignores: ['lib/messaging/**'],
    rules: { 'no-restricted-syntax': ['error', ...bannedMarkup, ...senderReads] },
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
    // Shared components are props in, events out: no browser APIs, and they never reach into a page.
    files: ['components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'wxt/browser',
              message: 'Components take props and raise events; the page controller calls the browser.',
            },
            {
              name: 'webextension-polyfill',
              message: 'Components take props and raise events; no browser APIs.',
            },
          ],
          patterns: [
            { regex: '^wxt/utils/', message: 'Components take props and raise events; no browser APIs.' },
            {
              regex: '^(@/|(\\.\\./)+)lib/pages(/|$)',
              message: 'components/ is shared by pages: it never imports one.',
            },
          ],
        },
      ],
    },
  },
  ...PAGES.map((page) => ({
    // A page folder holds what only that page uses: another page's code is shared by moving it to components/.
    files: [`lib/pages/${page}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/lib/pages/(?!${page}/|navigation$|useAsync$|errorText$|firstPaint$|pageMatches$|openapiEnums$|workerPush$|playbookWords$)`,
              message: `lib/pages/${page} may not import another page; move what two pages share to components/ or lib/pages/*.ts.`,
            },
            {
              regex: '^\\.\\./',
              message: 'Reach outside the page folder by its @/ path, so a cross-page import shows.',
            },
            ...notTheSwitchboard,
            ...onlyTheOwnerWrites,
          ],
        },
      ],
    },
  })),
  {
    // lib/ is by domain and knows nothing of the pages, except where each page lives (navigation.ts).
    files: ['lib/**'],
    ignores: ['lib/pages/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...onlyNavigation, ...onlyTheOwnerWrites],
        },
      ],
    },
  },
  {
    // The domain folders (and lib/pages/*.ts) under the same rule, plus: nothing imports the switchboard.
    files: ['lib/**'],
    ignores: ['lib/pages/*/**', 'lib/background/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...onlyNavigation, ...notTheSwitchboard, ...onlyTheOwnerWrites],
        },
      ],
    },
  },
  {
    // The owner of a write's lifecycle, which keeps drafts in lib/writes/outbox.ts.
    files: ['lib/writes/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...onlyNavigation, ...notTheSwitchboard],
        },
      ],
    },
  },
  {
    // The bottom layer (wire-level policy, build modes) imports nothing of ours, so no cycle can run through it.
    files: ['lib/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|\\.\\./|~/)',
              message:
                'lib/contract is the bottom layer: it imports nothing of ours (only libraries and its own files).',
            },
          ],
        },
      ],
    },
  },
  {
    // The one folder order of lib/ (LIB_LAYERS): no folder imports one above it, so no cycle between folders.
    files: ['lib/**', 'components/**'],
    plugins: { layers },
    rules: { 'layers/folder-order': ['error', { layers: LIB_LAYERS }] },
  },
  {
    // Every page in the user's language: visible text comes from locales/, never a literal.
    files: ['lib/pages/**/*.tsx', 'components/**/*.tsx'],
    plugins: { i18n },
    rules: { 'i18n/no-literal-text': 'error' },
  },
  {
    files: ['entrypoints/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: onlyTheOwnerWrites }] },
  },
  {
    // Smaller pieces: a product function over 80 lines (comments and blank lines counted) is split
    // along its responsibilities, or says why it stays long in its eslint-disable comment.
    files: ['lib/**', 'components/**', 'entrypoints/**'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    // Tests live beside what they test, in files a reader can hold: at most 600 lines.
    files: ['tests/**'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }] },
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
