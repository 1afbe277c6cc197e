import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const INDEX_HTML = '<!doctype html><html><body><div id="root"></div><script src="/main.0123456789.js"></script></body></html>';
export const REMOTE_VERSIONS = { 'mfe-sheets': '0.1.0', 'mfe-chat': '0.2.0', 'mfe-git': '1.0.0', 'mfe-members': '0.1.3' } as const;

export interface Fixture {
  root: string;
  distDir: string;
  repoRoot: string;
  remotesFile: string;
  cleanup(): Promise<void>;
}

/** A built shell, four remote package.json files and an empty data dir, in a temp folder. */
export async function createFixture(): Promise<Fixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'tessera-shell-server-'));
  const distDir = path.join(root, 'dist');
  const repoRoot = path.join(root, 'repo');
  await mkdir(distDir, { recursive: true });
  await writeFile(path.join(distDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(distDir, 'main.0123456789.js'), 'console.log("shell")');
  await writeFile(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [name, version] of Object.entries(REMOTE_VERSIONS)) {
    await mkdir(path.join(repoRoot, name), { recursive: true });
    await writeFile(path.join(repoRoot, name, 'package.json'), JSON.stringify({ name: `@tessera/${name}`, version }));
  }
  return {
    root,
    distDir,
    repoRoot,
    // In a data dir that does not exist yet: the server must create it.
    remotesFile: path.join(root, 'data', 'remotes.json'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
