const path = require('node:path');

/** The workspace root: this file lives in tooling/jest-react (pnpm links it by its real path). */
const workspaceRoot = path.resolve(__dirname, '..', '..');

/**
 * The jest config of a front-end package: unit tests beside the code under src/, in jsdom,
 * swc strips types (tsc checks them separately), with the shared setup (./src/setup.ts).
 *
 * @param {string} packageDir the package's folder (pass `__dirname` from its jest.config.cjs)
 * @param {import('jest').Config} [overrides] merged over the result (shallowly)
 * @returns {import('jest').Config}
 */
module.exports = function jestReactConfig(packageDir, overrides = {}) {
  return {
    rootDir: packageDir,
    testEnvironment: 'jsdom',
    roots: ['<rootDir>/src'],
    transform: {
      '^.+\\.tsx?$': [
        '@swc/jest',
        { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
      ],
    },
    moduleNameMapper: {
      // The contracts' ESM dist does not load under jest's CommonJS: use their source (no build needed).
      '^@tessera/contracts$': path.join(workspaceRoot, 'shared-contracts', 'src', 'index.ts'),
      // The same for the UI kit (its dist is built by tsc for the remotes' webpack builds).
      '^@tessera/ui-kit$': path.join(workspaceRoot, 'ui-kit', 'src', 'index.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    setupFilesAfterEnv: [path.join(__dirname, 'src', 'setup.ts')],
    // The tests render whole screens over real loopback HTTP: jest's 5 s default is too tight
    // on a busy 2-core machine (a slow test is not a failing one; a hung one still fails).
    testTimeout: 30_000,
    ...overrides,
  };
};
