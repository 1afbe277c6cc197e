import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { HybridForwardRequest } from '@tessera/contracts';
import { GitRepository } from '../git/repository.service.js';

/** A selected git file's text as the model gets it. */
export interface GitFileText {
  path: string;
  content: string;
  /** Why the content is not the whole file (cut, missing, binary). */
  note?: string;
}

/** A file beyond this is cut; the files together are bounded too, so the prompt stays small. */
const FILE_MAX_CHARS = 20_000;
const FILES_MAX_CHARS = 60_000;
const FILES_MAX = 10;

/** The paths a request names in `files` (strings or {path}), each once, in order. */
export function requestFilePaths(body: HybridForwardRequest): string[] {
  const paths = (body.files ?? []).map((file) => (typeof file === 'string' ? file : file.path).trim()).filter(Boolean);
  return [...new Set(paths)];
}

/**
 * Reads the selected files at the head of main from the code repository (the git tab's). A
 * repository that does not exist yet is not created here: its files are simply not there.
 */
export function createGitFileReader(repoDir: string): (paths: string[]) => Promise<GitFileText[]> {
  let repo: GitRepository | undefined;
  return async (paths) => {
    if (!paths.length) return [];
    const exists = await stat(path.join(repoDir, 'HEAD')).then(
      () => true,
      () => false,
    );
    const head = exists ? await (repo ??= new GitRepository(repoDir)).head() : null;
    const files: GitFileText[] = [];
    let budget = FILES_MAX_CHARS;
    for (const filePath of paths.slice(0, FILES_MAX)) {
      const found = head ? await repo!.readFile(head, filePath).catch(() => null) : null;
      if (!found) {
        files.push({ path: filePath, content: '', note: 'not in the repository' });
        continue;
      }
      const text = new TextDecoder('utf-8', { fatal: false }).decode(found.bytes);
      if (text.includes('\u0000')) {
        files.push({ path: filePath, content: '', note: 'binary, not shown' });
        continue;
      }
      const room = Math.max(0, Math.min(FILE_MAX_CHARS, budget));
      files.push(text.length > room ? { path: filePath, content: text.slice(0, room), note: `cut at ${room} of ${text.length} characters` } : { path: filePath, content: text });
      budget -= Math.min(text.length, room);
    }
    return files;
  };
}
