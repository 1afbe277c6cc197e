const path = require('node:path');

/**
 * Unit tests beside the code under src/, in jsdom with Node's fetch (./jest.environment.cjs),
 * with the front-end packages' shared setup (tooling/jest-react). react-markdown and its
 * unified/remark family ship ESM only: swc compiles them to CommonJS like our own sources.
 */
const base = require('@tessera/jest-react/config.cjs')(__dirname);
const esmOnly = [
  'react-markdown', 'remark-.*', 'rehype-.*', 'unified', 'bail', 'is-plain-obj', 'trough', 'vfile.*', 'unist-.*',
  'mdast-.*', 'micromark.*', 'decode-named-character-reference', 'character-entities.*', 'property-information',
  'hast-.*', 'space-separated-tokens', 'comma-separated-tokens', 'zwitch', 'longest-streak', 'ccount',
  'markdown-table', 'escape-string-regexp', 'trim-lines', 'html-url-attributes', 'devlop', 'estree-.*',
  'stringify-entities', 'character-reference-invalid', 'is-.*', 'web-namespaces', 'inline-style-parser',
  'style-to-.*', 'html-void-elements', 'extend',
].join('|');

module.exports = {
  ...base,
  testEnvironment: path.join(__dirname, 'jest.environment.cjs'),
  transform: {
    ...base.transform,
    '^.+\\.m?js$': ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(${esmOnly})(/|$))`],
};
