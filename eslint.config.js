// ESLint flat config: typescript-eslint strict type-checked everywhere, React hooks and jsx-a11y for the client,
// regexp's super-linear checks over src, and import boundaries: src/shared imports nothing from the client, the server, Node.js or the DOM; the client
// imports the server only as types; services import neither front door (http/, trpc/).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import regexpPlugin from 'eslint-plugin-regexp';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'stream/promises',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/.data/**',
      'src/server/db/migrations/**',
      'src/server/db/migrations-pg/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // src is type-checked by the split tsconfigs (noUncheckedIndexedAccess on, no DOM in shared and server, no Node
    // in shared and client). Lint must see the same types as tsc: under tsconfig.json an index read is never
    // undefined, so every real guard against a missing element would be reported as an unnecessary condition.
    files: ['src/shared/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.shared.json' } },
  },
  {
    files: ['src/server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.server.json' } },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.client.json' } },
  },
  {
    rules: {
      // Numbers and booleans read naturally in messages; objects and nullish values still may not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Callbacks in props and contexts are properties, so passing them around never loses `this`.
      '@typescript-eslint/method-signature-style': ['error', 'property'],
      // `const { id: _id, ...rest } = row` is how an object is copied without a key; the key is meant to go unused.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Regular expressions in src run on what people send (files, names, descriptions): none may backtrack
    // super-linearly, nor be retried at every position of a text it fails on (a quadratic scan).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { regexp: regexpPlugin },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    // A function in src reads at once: at most 80 lines of code, counting neither blank lines nor comments (a comment
    // that says why never pushes a function over). Split a longer one into named pieces: sub-components, hooks,
    // helpers. Tests, benchmarks and scripts may be longer.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests, benchmarks and scripts read untyped JSON from HTTP answers and files: the no-unsafe-* family would
    // flag every property read of a parsed body, and a failed assertion on undefined is what a test wants anyway.
    files: ['tests/**', 'bench/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Raw driver answers differ by database (the PostgreSQL test client returns counts and sums as strings while the
      // types say number), so Number() and ?? on them are not redundant; mocks implement async interfaces without awaiting.
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-router',
              importNames: ['useSearch', 'useParams'],
              message: "Read a route's search and params through its typed API: getRouteApi('/_auth/x').useSearch().",
            },
          ],
          patterns: [
            {
              group: ['**/server/**', '**/server'],
              allowTypeImports: true,
              message: 'The client imports the server only as types.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='location'][property.name=/^(search|hash)$/]",
          message: "Read a route's search through its typed API (getRouteApi('/_auth/x').useSearch()), not the URL.",
        },
        {
          selector: "MemberExpression[object.property.name='location'][property.name=/^(search|hash)$/]",
          message: "Read a route's search through its typed API (getRouteApi('/_auth/x').useSearch()), not the URL.",
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'src/shared runs in the browser too: no Node.js modules.',
          })),
          patterns: [
            { group: ['node:*'], message: 'src/shared runs in the browser too: no Node.js modules.' },
            {
              group: ['**/client/**', '**/client', '**/server/**', '**/server'],
              message: 'src/shared imports nothing from the client or the server.',
            },
            { group: ['react', 'react-dom', '@mui/*'], message: 'src/shared is pure: no UI libraries.' },
          ],
        },
      ],
    },
  },
  {
    // Layers one way: services (rules and the ORM) know nothing of the front doors that call them,
    // and only src/server/db knows which database it talks to.
    files: ['src/server/modules/**/*.ts', 'src/server/common/**/*.ts'],
    ignores: ['src/server/modules/**/*.rest.ts', 'src/server/modules/**/*.router.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/http', '**/trpc/**', '**/trpc'],
              message: 'Services do not import the front doors (http/, trpc/): return data and let the door shape it.',
            },
          ],
        },
      ],
    },
  },
);
