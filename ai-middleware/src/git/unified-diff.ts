import { createTwoFilesPatch } from 'diff';
import type { GitDiffFile } from '@tessera/contracts';

/**
 * One file's unified diff with git's headers (`diff --git`, new/deleted file
 * mode, /dev/null sides), made with the `diff` library, so `git apply` takes it.
 */
export function fileDiff(filePath: string, oldText: string | null, newText: string | null): { file: GitDiffFile; patch: string } {
  const added = oldText === null;
  const deleted = newText === null;
  const patch = createTwoFilesPatch(added ? '/dev/null' : `a/${filePath}`, deleted ? '/dev/null' : `b/${filePath}`, oldText ?? '', newText ?? '', undefined, undefined, {
    context: 3,
  });
  // Drop the library's `====` separator: git's header goes first instead.
  const body = patch.slice(patch.indexOf('--- '));
  const hunks = body.split('\n').slice(2);
  let additions = 0;
  let deletions = 0;
  for (const line of hunks) {
    if (line.startsWith('+')) additions += 1;
    else if (line.startsWith('-')) deletions += 1;
  }
  const header = [`diff --git a/${filePath} b/${filePath}`];
  if (added) header.push('new file mode 100644');
  if (deleted) header.push('deleted file mode 100644');
  // An empty file added or deleted has no hunk; git writes no ---/+++ lines for it either.
  const text = hunks.some((l) => l.startsWith('@@')) ? `${header.join('\n')}\n${body}` : `${header.join('\n')}\n`;
  return {
    file: { path: filePath, status: added ? 'added' : deleted ? 'deleted' : 'modified', additions, deletions },
    patch: text,
  };
}
