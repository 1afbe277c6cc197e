// The shell is the Module Federation host. It knows no remote at build time:
// remotes are registered at run time from /remotes.json (src/remotes/).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { cssRule, minimizer, precompress, sharedSingletons, swcRule } from '@tessera/webpack-remote';

const dir = path.dirname(fileURLToPath(import.meta.url));
// Build tools are dependencies of the shared tooling package; resolve them from there.
const toolingRequire = createRequire(fileURLToPath(import.meta.resolve('@tessera/webpack-remote')));
const HtmlWebpackPlugin = toolingRequire('html-webpack-plugin');

/** @returns {import('webpack').Configuration} */
export default (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    // index.ts only imports ./bootstrap: shared singletons are negotiated before React runs.
    entry: { main: './src/index.ts' },
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath: '/',
      // The entry name stays plain: MF's federation runtime module interpolates output.filename
      // where no content hash exists. index.html (served no-cache) loads it with ?<hash>.
      filename: '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      uniqueName: 'tessera_shell',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs'],
      // Sources import siblings ESM style ('./x.js'); the files are .ts/.tsx.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: { rules: [swcRule({ development: !production }), cssRule()] },
    plugins: [
      new ModuleFederationPlugin({
        name: 'tessera_shell',
        remotes: {},
        shared: sharedSingletons(dir),
        // A remote that is down must not blank the page (FACTS.md).
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
      }),
      new HtmlWebpackPlugin({ template: path.join(dir, 'public/index.html'), chunks: ['main'], hash: production }),
      ...(production ? precompress() : []),
    ],
    optimization: {
      chunkIds: production ? 'deterministic' : 'named',
      moduleIds: 'deterministic',
      minimizer: [minimizer()],
    },
    performance: { hints: false },
  };
};
