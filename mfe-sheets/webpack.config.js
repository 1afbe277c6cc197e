import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';

const remote = REMOTES['mfe-sheets'];

// Navigator and Workspace: the two places the shell mounts this remote in.
const base = remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: { './Navigator': './src/navigator/Navigator.tsx', './Workspace': './src/workspace/Workspace.tsx' },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-sheets'],
});

/**
 * A web worker's script built as one file of its own, beside the remote's chunks, as
 * monaco-editor-webpack-plugin builds Monaco's (mfe-git): a child compilation with webpack's
 * web-worker target, its assets part of this build (minified, precompressed, released). Not
 * `new Worker(new URL(...))`: the page runs on the shell's origin and may not start a worker from
 * this remote's, so start-formula-worker.ts starts it from a blob that importScripts this file,
 * which needs a fixed name and no chunks of its own to load (it is one file).
 */
/** The hooks Module Federation's plugins tap (ModuleFederationPlugin, Provide/ConsumeSharedPlugin, FederationRuntimePlugin…). */
const FEDERATION_TAP = /federation|shared|container/i;

class WorkerEntryPlugin {
  /** @param {{ name: string, entry: string, filename: string }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { webpack } = compiler;
    const { name, entry, filename } = this.options;
    compiler.hooks.make.tapAsync('TesseraWorkerEntry', (compilation, callback) => {
      const child = compilation.createChildCompiler(name, { filename, chunkFilename: `${name}.[id].[contenthash:10].js`, publicPath: '', globalObject: 'self' }, [
        new webpack.webworker.WebWorkerTemplatePlugin(),
        new webpack.LoaderTargetPlugin('webworker'),
      ]);
      // A child compiler inherits the parent's plugins, Module Federation's too, which would make the
      // worker provide the shared modules (Chakra, React…) as chunks nothing loads: not in a worker.
      for (const hook of Object.values(child.hooks)) {
        if (Array.isArray(hook?.taps)) hook.taps = hook.taps.filter((tap) => !FEDERATION_TAP.test(tap.name));
      }
      new webpack.EntryPlugin(compiler.context, entry, name).apply(child);
      child.runAsChild((error) => callback(error));
    });
  }
}

export default (env, argv) => {
  const config = base(env, argv);
  // HyperFormula runs in this worker (src/workspace/grid/formulas/), off the page's main thread.
  config.plugins.push(new WorkerEntryPlugin({ name: 'formula-worker', entry: './src/workspace/grid/formulas/formula.worker.ts', filename: 'formula.worker.js' }));
  return config;
};
