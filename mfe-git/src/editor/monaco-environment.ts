// Set up after monaco-editor/editor/editor.api is evaluated (MonacoEditor.tsx imports this second),
// so it replaces what monaco-editor-webpack-plugin put there.

/** This remote's own base URL at run time (webpack's publicPath 'auto'): another origin than the page's. */
declare const __webpack_public_path__: string;

/** The worker files monaco-editor-webpack-plugin builds, by Monaco's worker label. */
const WORKER_FILES: Record<string, string> = {
  json: 'json.worker.js',
  typescript: 'ts.worker.js',
  javascript: 'ts.worker.js',
};
const EDITOR_WORKER_FILE = 'editor.worker.js';

/**
 * Monaco's workers, started from a blob (a page may not start a worker from
 * another origin) that loads the real file with importScripts. The plugin's
 * own getWorkerUrl hands Monaco a blob that `import`s the file, and Monaco
 * then imports that blob from a second blob: the shell's Content-Security-
 * Policy allows blob: for workers but not for scripts, so that nested import
 * is refused. A classic worker's importScripts of this remote's origin is
 * what script-src already allows.
 */
export function installMonacoEnvironment(): void {
  const base = new URL(__webpack_public_path__, window.location.href);
  self.MonacoEnvironment = {
    getWorker(_moduleId: string, label: string) {
      const url = new URL(WORKER_FILES[label] ?? EDITOR_WORKER_FILE, base).toString();
      const blob = new Blob([`/*${label}*/importScripts(${JSON.stringify(url)});`], { type: 'application/javascript' });
      const blobUrl = URL.createObjectURL(blob);
      const worker = new Worker(blobUrl, { name: label });
      // The worker has read the blob once it runs; the URL is not needed after that.
      setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
      return worker;
    },
  };
}
