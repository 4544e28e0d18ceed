// Nest 12 ships ES modules, so jest runs in ESM mode (NODE_OPTIONS=--experimental-vm-modules,
// set by the npm scripts). ts-jest transpiles only (isolatedModules): `npm run typecheck` is
// the type check, which keeps the suite fast on two cores.
const tsJest = ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }];
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: 'node',
};

/** @type {import('jest').Config} */
export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/fleet\\.e2e-spec\\.ts$', '<rootDir>/test/nginx-retries\\.e2e-spec\\.ts$'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/integration-timeout.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    // The deploy/ folder: the manifests against their schemas, and the fleet test with its own
    // PostgreSQL primary and replica, Redis and nginx (test/setup/fleet-processes.ts).
    {
      ...common,
      displayName: 'deploy',
      testMatch: ['<rootDir>/test/deploy-manifests.spec.ts', '<rootDir>/test/fleet.e2e-spec.ts', '<rootDir>/test/nginx-retries.e2e-spec.ts'],
    },
  ],
  testTimeout: 60000,
};
