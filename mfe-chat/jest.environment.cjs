const path = require('node:path');

// jest-environment-jsdom is the shared config's environment (a dependency of @tessera/jest-react).
const jestReactDir = path.dirname(require.resolve('@tessera/jest-react/config.cjs'));
const { TestEnvironment } = require(require.resolve('jest-environment-jsdom', { paths: [jestReactDir] }));

/**
 * jsdom with Node's fetch: the panel streams replies through the shell's ai client with
 * axios' fetch adapter (a Response whose body is read as Server-Sent Events), and jsdom has
 * no fetch. The abort classes come along because Node's Request only takes its own signals.
 */
class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'ReadableStream',
      'WritableStream',
      'TransformStream',
      'TextDecoderStream',
      'AbortController',
      'AbortSignal',
      'structuredClone',
    ]) {
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithFetch;
