// The shell is the Module Federation host. It knows no remote at build time:
// remotes are registered at run time from /remotes.json (src/remotes/).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { baseConfig, ChakraExportsPlugin, chakraExportsOf, precompress, sharedModules } from '@tessera/webpack-remote';

const dir = path.dirname(fileURLToPath(import.meta.url));
// Build tools are dependencies of the shared tooling package; resolve them from there.
const toolingRequire = createRequire(fileURLToPath(import.meta.resolve('@tessera/webpack-remote')));
const HtmlWebpackPlugin = toolingRequire('html-webpack-plugin');

/** @returns {import('webpack').Configuration} */
export default (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    ...baseConfig({ dir, entry: './src/index.ts', publicPath: '/', uniqueName: 'tessera_shell', production }),
    plugins: [
      new ModuleFederationPlugin({
        name: 'tessera_shell',
        remotes: {},
        shared: sharedModules(dir),
        // A remote that is down must not blank the page (FACTS.md).
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
      }),
      // The shell provides only CHAKRA_EXPORTS (sharedModules()); its own code must stay inside them.
      new ChakraExportsPlugin({ provided: chakraExportsOf(dir) }),
      new HtmlWebpackPlugin({ template: path.join(dir, 'public/index.html'), chunks: ['main'], hash: production }),
      ...(production ? precompress() : []),
    ],
  };
};
