/** Unit tests beside the code, in jsdom, with the front-end packages' shared setup (tooling/jest-react). */
const base = require('@tessera/jest-react/config.cjs')(__dirname);

module.exports = {
  ...base,
  // The grid imports Handsontable's stylesheets and needs a few more jsdom shims.
  moduleNameMapper: { '\\.css$': '<rootDir>/src/workspace/testing/style-stub.cjs', ...base.moduleNameMapper },
  setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/src/workspace/testing/grid-setup.ts'],
};
