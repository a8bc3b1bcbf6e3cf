// Lint rules for the whole workspace. Module boundaries are enforced on two axes:
//   scope:shared (browser-safe) | scope:server | scope:console
//   type:app | type:area (one business area) | type:infra | type:contracts | type:testing | type:ui |
//   type:data-access (the console's generated API clients)
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const ROOT = dirname(fileURLToPath(import.meta.url));

// Test files (and the shared contract suites and fixtures they run) may also use the testing library.
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.spec.tsx',
  '**/contract/**/*.ts',
  '**/fixtures/**/*.ts',
];

function boundaries({ inTests }) {
  const testing = inTests ? ['type:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    banTransitiveDependencies: false,
    allow: [],
    depConstraints: [
      // Browser code never pulls in server code, and shared code stays browser-safe.
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:console', 'scope:shared'] },
      { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared'] },
      // Layering: contracts <- infra <- area <- app; areas talk through events, never to each other.
      { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
      { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:contracts', ...testing] },
      { sourceTag: 'type:area', onlyDependOnLibsWithTags: ['type:infra', 'type:contracts', ...testing] },
      // The console's API clients are generated from the services' documents: they stand on contracts only.
      { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:contracts'] },
      { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:ui', 'type:contracts', 'type:data-access'] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:infra', 'type:contracts', 'type:area'] },
      // Production code of an app never imports the testing library.
      {
        sourceTag: 'type:app',
        onlyDependOnLibsWithTags: [
          'type:area',
          'type:infra',
          'type:contracts',
          'type:ui',
          'type:data-access',
          ...testing,
        ],
      },
    ],
  };
}

/**
 * No file outside an app imports that app's source (`apps/<app>/src/...`): what other code needs lives in a
 * library. Each import is resolved from the importing file, so a relative path is caught at any depth
 * (`../../apps/x/src/...` from bench/ or scripts/, `../../../x/src/...` from another app) and an app's own
 * relative imports stay allowed. @nx/enforce-module-boundaries refuses such paths too, but only with a
 * cached project graph (it skips itself without one, as in a fresh clone linted with eslint alone), and it
 * was silenced import by import; this rule needs nothing but the path.
 */
const noForeignAppImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      foreign:
        "'{{source}}' is the source of app {{app}}: import what other code needs from a library (@voltdepot/*), never from apps/{{app}}/src.",
    },
  },
  create(context) {
    const own = /^apps\/([^/]+)\//.exec(relative(ROOT, context.filename).split('\\').join('/'))?.[1];
    const check = (node) => {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
      if (!source) return;
      // Relative to the file, or to the workspace root (tsconfig's baseUrl makes `apps/...` resolvable).
      const base = source.startsWith('.') ? dirname(context.filename) : ROOT;
      const target = relative(ROOT, resolve(base, source)).split('\\').join('/');
      const app = /^apps\/([^/]+)\/src(?:\/|$)/.exec(target)?.[1];
      if (app && app !== own) context.report({ node, messageId: 'foreign', data: { source, app } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.var/**',
      '**/.nx/**',
      '**/coverage/**',
      '**/vite.config.*.timestamp*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    plugins: { '@nx': nx, voltdepot: { rules: { 'no-foreign-app-imports': noForeignAppImports } } },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries({ inTests: false })],
      'voltdepot/no-foreign-app-imports': 'error',
      // A library is imported only through its index.ts.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@voltdepot/*/*'],
              message: 'Import a library only through its index (e.g. @voltdepot/server-core).',
            },
            {
              group: ['**/libs/**', '../../libs/*'],
              message: 'Use the @voltdepot/* alias instead of a relative path into libs/.',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': 'off',
    },
  },
  // Type-aware rules that catch real bugs: a promise nobody awaits or handles (its rejection is lost, or
  // an unhandled rejection ends the process), and a switch over a union that misses a member. Every file
  // is read with its project's types. VOLTDEPOT_LINT_TYPES=off leaves them out, for the boundary specs that
  // lint made-up files no project contains (scripts/lint-boundaries.spec.ts).
  ...(process.env['VOLTDEPOT_LINT_TYPES'] === 'off'
    ? []
    : [
        {
          files: ['**/*.ts', '**/*.tsx'],
          languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
          rules: {
            '@typescript-eslint/no-floating-promises': 'error',
            '@typescript-eslint/switch-exhaustiveness-check': [
              'error',
              { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
            ],
          },
        },
      ]),
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries({ inTests: true })] },
  },
  {
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.cjs', 'scripts/**/*.js', 'jest.config.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
