// Lint rules for the whole workspace. Module boundaries are enforced on two axes:
//   scope:shared (browser-safe) | scope:server | scope:console
//   type:app | type:area (one business area) | type:infra | type:contracts | type:testing | type:ui |
//   type:data-access (the console's generated API clients)
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

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
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries({ inTests: false })],
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
