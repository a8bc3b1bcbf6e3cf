// Two tiers share one transform: unit (*.spec.ts, no I/O) and integration (*.int-spec.ts, real services).
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': swcTransform },
  moduleNameMapper,
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.var/'],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,bench,scripts}/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/apps/console/', '/libs/console/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/apps/console/', '/libs/console/'],
      setupFilesAfterEnv: ['<rootDir>/libs/server/testing/src/jest/integration-setup.ts'],
    },
  ],
};
