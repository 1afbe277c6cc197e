// Shared webpack + Module Federation settings of Tessera's front-end packages:
// the four remotes use remoteConfig(); the shell (host) reuses sharedModules() and the rules.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { CHAKRA, ChakraExportsPlugin, chakraExportsOf, writeChakraSubset } from './chakra-share.js';
import { packageIdentity, ReleasePlugin } from './release.js';

export { packageIdentity, publishRelease, releasesRoot, ReleasePlugin } from './release.js';
export { ChakraExportsPlugin, chakraExportsOf } from './chakra-share.js';

const require = createRequire(import.meta.url);
const CompressionPlugin = require('compression-webpack-plugin');
// Resolved through webpack, whose dependency it is (see minimizer()).
const Minimizer = createRequire(require.resolve('webpack'))('minimizer-webpack-plugin');

/** Packages that must exist once per page, host and remotes alike. */
export const SINGLETON_PACKAGES = [
  'react',
  'react-dom',
  '@chakra-ui/react',
  '@emotion/react',
  'zustand',
];

/**
 * Workspace packages shared by version, not as singletons (see sharedModules()): the contracts,
 * and the remotes' UI kit, whose components each remote would otherwise bundle again.
 */
export const VERSIONED_PACKAGES = ['@tessera/contracts', '@tessera/ui-kit'];

/**
 * Deep imports that reach the same singleton: the automatic JSX runtime and the
 * React DOM client. Unshared, a remote would bundle a second copy of them.
 * @type {Record<string, string>}
 */
const SINGLETON_SUBPATHS = {
  'react/jsx-runtime': 'react',
  'react/jsx-dev-runtime': 'react',
  'react-dom/client': 'react-dom',
};

/**
 * Version of a package as installed for the package in `dir`. pnpm links every
 * direct dependency (workspace ones included) into `dir/node_modules`.
 * @param {string} name
 * @param {string} dir
 * @returns {string}
 */
export function installedVersion(name, dir) {
  const linked = path.join(dir, 'node_modules', name, 'package.json');
  const file = existsSync(linked) ? linked : createRequire(path.join(dir, 'package.json')).resolve(`${name}/package.json`);
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

/**
 * Whether the package in `dir` lists `name` among its dependencies.
 * @param {string} name
 * @param {string} dir
 * @returns {boolean}
 */
function dependsOn(name, dir) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return Boolean(pkg.dependencies?.[name]);
}

/**
 * The MF `shared` config: every package with the version range the package in
 * `dir` was built against. The UI libraries are singletons (one React per page).
 * Chakra is provided (and falls back) as the subset of CHAKRA_EXPORTS (chakra-share.js),
 * under its own share key and version, so hosts and remotes built before or after agree on it.
 * `@tessera/contracts` is shared but NOT a singleton: a remote built against
 * contracts 1.3 that runs beside a shell built against 1.1 must not get the
 * shell's older copy (its newer schemas and texts would be undefined), so it
 * takes a copy that satisfies `^1.3.0` — its own if nothing loaded does. Another
 * major is refused before loading by the shell's loader (build info in
 * mf-manifest.json). Contracts changes that add exports bump the minor. `@tessera/ui-kit` is
 * shared the same way (each remote gets a kit at least as new as the one it was built with),
 * where the package depends on it.
 * @param {string} [dir] the package whose installed versions to use (default: cwd)
 * @returns {Record<string, { singleton: boolean, requiredVersion: string, version?: string, import?: string }>}
 */
export function sharedModules(dir = process.cwd()) {
  /** @type {Record<string, { singleton: boolean, requiredVersion: string, version?: string, import?: string }>} */
  const shared = {};
  for (const name of SINGLETON_PACKAGES) {
    shared[name] = { singleton: true, requiredVersion: `^${installedVersion(name, dir)}` };
  }
  // The version is Chakra's own: the generated module sits in the building package.
  const chakraVersion = installedVersion(CHAKRA, dir);
  shared[CHAKRA] = { ...shared[CHAKRA], version: chakraVersion, import: writeChakraSubset(dir, chakraExportsOf(dir)) };
  for (const name of VERSIONED_PACKAGES) {
    // The UI kit only where the package uses it (the shell does not).
    if (name !== '@tessera/contracts' && !dependsOn(name, dir)) continue;
    shared[name] = { singleton: false, requiredVersion: `^${installedVersion(name, dir)}` };
  }
  for (const [subpath, owner] of Object.entries(SINGLETON_SUBPATHS)) {
    shared[subpath] = { singleton: true, requiredVersion: shared[owner].requiredVersion };
  }
  return shared;
}

/**
 * The contracts major the package in `dir` is built against.
 * @param {string} dir
 * @returns {number}
 */
export function contractsMajorOf(dir) {
  return Number(installedVersion('@tessera/contracts', dir).split('.')[0]);
}

/**
 * What a remote declares in its mf-manifest.json under `metaData.tessera`
 * (RemoteBuildInfoSchema): the shell and `pnpm remotes` read it to show the
 * running version and to refuse a build against another contracts major.
 * @param {string} dir
 * @returns {{ remote: string, version: string, contractsMajor: number }}
 */
export function buildInfo(dir) {
  return { ...packageIdentity(dir), contractsMajor: contractsMajorOf(dir) };
}

/**
 * The TS/TSX rule: swc strips types (tsc checks them apart) with React's automatic runtime.
 * @param {{ development?: boolean }} [options]
 * @returns {import('webpack').RuleSetRule}
 */
export function swcRule({ development = false } = {}) {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          target: 'es2020',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development } },
        },
      },
    },
  };
}

/**
 * Plain CSS, injected as style tags (remotes have no stylesheet of their own to link).
 * @returns {import('webpack').RuleSetRule}
 */
export function cssRule() {
  return {
    test: /\.css$/,
    use: [require.resolve('style-loader'), require.resolve('css-loader')],
  };
}

/**
 * The production JS minimizer: webpack's own (terser-webpack-plugin, renamed in 5.111) driven
 * by swc, which minifies Chakra's 1.1 MB chunk in seconds instead of most of a minute.
 * ASCII-only output: a static server that sends .js without a charset makes the browser
 * decode it with the page's charset, turning the spec's '•' and '—' into mojibake.
 * @returns {import('webpack').WebpackPluginInstance}
 */
export function minimizer() {
  return new Minimizer({
    minify: Minimizer.swcMinify,
    minimizerOptions: { format: { asciiOnly: true } },
    extractComments: false,
  });
}

/** Assets above this size are brotli-compressed at quality 9 instead of 11 (see brotli()). */
const LARGE_ASSET_BYTES = 2 * 1024 * 1024;

/**
 * Brotli at its best quality (11), but for the assets over 2 MB — only Monaco's core and its
 * TypeScript worker (4.3 and 7.4 MB), fetched when the code editor opens and then cached — at
 * quality 9: those two took ~80% of all brotli time of the build (mfe-git's build is the
 * longest of `npm test`'s bootstrap); at 9 they compress ~8× faster and come out 10% larger
 * than at 11 (still 22% smaller than gzip).
 * @param {Buffer} input
 * @param {unknown} _options
 * @param {(error: Error | null, result: Buffer) => void} callback
 */
function brotli(input, _options, callback) {
  const quality = input.length > LARGE_ASSET_BYTES ? 9 : 11;
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length };
  zlib.brotliCompress(input, { params }, callback);
}

/**
 * Brotli and gzip copies of every text asset, written beside it at build time,
 * so the static servers send compressed files without compressing per request.
 * @returns {import('webpack').WebpackPluginInstance[]}
 */
export function precompress() {
  const test = /\.(js|css|html|json|svg)$/;
  return [
    new CompressionPlugin({ test, algorithm: 'gzip', filename: '[path][base].gz', threshold: 1024, minRatio: 0.9 }),
    new CompressionPlugin({ test, algorithm: brotli, filename: '[path][base].br', threshold: 1024, minRatio: 0.9 }),
  ];
}

/**
 * What every front-end build of Tessera shares, host and remotes alike: TS/TSX
 * through swc, content-hashed chunks, the swc minifier. Entry names stay plain:
 * MF's federation runtime module interpolates output.filename without a chunk
 * ("[contenthash] not implemented in this context"); the HTML loads them with ?hash.
 * @param {{ dir: string, entry: string, publicPath: string, uniqueName: string, production: boolean }} options
 * @returns {import('webpack').Configuration}
 */
export function baseConfig({ dir, entry, publicPath, uniqueName, production }) {
  return {
    mode: production ? 'production' : 'development',
    context: dir,
    // The entry only imports ./bootstrap: shared singletons are negotiated before React runs.
    entry: { main: entry },
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath,
      filename: '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      // Host and remotes share one page: keep their chunk globals apart.
      uniqueName,
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs'],
      // Sources import siblings as './x.js' (ESM style); the files are .ts/.tsx.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: { rules: [swcRule({ development: !production }), cssRule()] },
    optimization: {
      chunkIds: production ? 'deterministic' : 'named',
      moduleIds: 'deterministic',
      minimizer: [minimizer()],
    },
    performance: { hints: false },
  };
}

/**
 * A complete webpack config for one remote.
 * - `src/dev/index.ts` is the entry of the standalone dev page (it must only
 *   `import('./bootstrap')`, so shared modules are negotiated before React runs).
 * - remoteEntry.js + mf-manifest.json; exposed modules are async chunks, so a
 *   host downloads a remote's own code only when it asks for that module.
 * - publicPath 'auto': the same build works under any `/<version>/` path.
 * - mf-manifest.json carries `metaData.tessera` (buildInfo()); content-hashed chunks.
 * - `--env release` publishes the production build to releases/<remote>/<version>/.
 * @param {{
 *   name: string,
 *   dir: string,
 *   exposes: Record<string, string>,
 *   port: number,
 *   allowedExposes?: readonly string[],
 *   title?: string,
 * }} options `name` is the federation name (REMOTES[...].federationName);
 *   `allowedExposes` (REMOTES[...].exposes) rejects a module the shell does not know.
 * @returns {(env: unknown, argv: { mode?: string }) => import('webpack').Configuration}
 */
export function remoteConfig({ name, dir, exposes, port, allowedExposes, title }) {
  if (allowedExposes) {
    const unknown = Object.keys(exposes).filter((key) => !allowedExposes.includes(key));
    if (unknown.length) throw new Error(`${name}: exposes ${unknown.join(', ')} not listed in REMOTES`);
  }
  return (env, argv) => {
    const production = argv.mode !== 'development';
    const release = Boolean(env && typeof env === 'object' && /** @type {Record<string, unknown>} */ (env).release);
    if (release && !production) throw new Error('--env release needs --mode production');
    const info = buildInfo(dir);
    const chakra = new ChakraExportsPlugin({ provided: chakraExportsOf(dir) });
    return {
      // publicPath 'auto': the same build works under any /<version>/ path.
      ...baseConfig({ dir, entry: './src/dev/index.ts', publicPath: 'auto', uniqueName: name, production }),
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: sharedModules(dir),
          manifest: {
            // The Chakra names it uses: the shell refuses this release if it lacks one.
            additionalData: async ({ stats }) => {
              stats.metaData = { ...stats.metaData, tessera: { ...info, chakraExports: [...chakra.used].sort() } };
              return stats;
            },
          },
          dts: false,
          // A remote consumes no remotes and runs only in browsers: leave the
          // runtime's remote-loading, snapshot and Node code out of remoteEntry.js.
          experiments: { optimization: { disableSnapshot: true, disableRemote: true, target: 'web' } },
        }),
        chakra,
        new HtmlWebpackPlugin({ title: title ?? `${name} (standalone)`, chunks: ['main'], hash: production }),
        ...(production ? precompress() : []),
        ...(release ? [new ReleasePlugin({ dir, contractsMajor: info.contractsMajor })] : []),
      ],
      devServer: {
        host: '127.0.0.1',
        port,
        hot: false,
        // The host page lives on another origin and fetches the manifest and chunks.
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, OPTIONS',
          'Access-Control-Allow-Headers': '*',
        },
        // The dev page talks to the real services through the same paths the shell proxies.
        proxy: [
          { context: ['/api/v1', '/health'], target: process.env.API_URL ?? 'http://127.0.0.1:8083', ws: false },
          {
            context: ['/ai'],
            target: process.env.AI_URL ?? 'http://127.0.0.1:8081',
            pathRewrite: { '^/ai': '' },
          },
        ],
      },
    };
  };
}
