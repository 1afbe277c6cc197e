/** Unit tests beside the components, in jsdom, with the front-end packages' shared setup (tooling/jest-react). */
module.exports = require('@tessera/jest-react/config.cjs')(__dirname);
