import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTES, REMOTE_PORTS } from '@tessera/contracts';
import { remoteConfig } from '@tessera/webpack-remote';
import MonacoWebpackPlugin from 'monaco-editor-webpack-plugin';

const remote = REMOTES['mfe-git'];

const base = remoteConfig({
  name: remote.federationName,
  dir: path.dirname(fileURLToPath(import.meta.url)),
  exposes: {
    './GitPanel': './src/git-panel/GitPanel.tsx',
    './CodeEditor': './src/code-editor/CodeEditor.tsx',
  },
  allowedExposes: remote.exposes,
  port: REMOTE_PORTS['mfe-git'],
});

/**
 * Monaco: only the four languages the editor offers, its codicon font as a
 * file, its workers built by the plugin and started from blob URLs (this
 * remote runs on another origin than the page: see
 * src/editor/monaco-environment.ts). Monaco itself is reached only through the
 * dynamic import in src/editor/editor-loader.ts, so it lands in async chunks,
 * never in remoteEntry.js or the exposed modules' chunks.
 */
export default (env, argv) => {
  const config = base(env, argv);
  config.module.rules.push(
    { test: /\.ttf$/, type: 'asset/resource' },
    // Monaco 0.57 also names its workers as `new Worker(new URL(..., import.meta.url))`, which
    // webpack would build as same-origin worker chunks (and the editor worker as a raw asset).
    // Those fallbacks never run: MonacoEnvironment.getWorker (src/editor/monaco-environment.ts)
    // comes first and starts each worker from a blob, which is what works across origins.
    // Only Monaco's own .js: css-loader's modules for Monaco's CSS (the codicon font's url()) need their URLs.
    { test: /[\\/]monaco-editor[\\/]esm[\\/].*\.js$/, parser: { worker: false, url: false } },
  );
  config.plugins.push(new MonacoWebpackPlugin({ languages: ['python', 'typescript', 'json', 'markdown'] }));
  return config;
};
