/** Unit tests beside the code, in jsdom; swc strips types (tsc checks them separately). */
module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/src'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
    ],
  },
  moduleNameMapper: {
    // The contracts' sources, so tests need no build of shared-contracts.
    '^@tessera/contracts$': '<rootDir>/../shared-contracts/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
};
