import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_GIT_BRANCH, type GitContext } from '@tessera/contracts';
import { GitRepository } from '../git/repository.service.js';

/** Recent commits the model sees. */
export const GIT_CONTEXT_COMMITS = 5;

/**
 * The code repository's (issue 9) branch and recent commits, for a chat's git context. Reads
 * only: a repository that does not exist yet is an empty history here, never created by a chat.
 * (The selected files' content is read by the hybrid routes' git file reader.)
 */
export class GitContextReader {
  private repo: GitRepository | undefined;

  constructor(private readonly dir: string) {}

  async read(): Promise<Pick<GitContext, 'branch' | 'recent_commits'>> {
    const exists = await stat(path.join(this.dir, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) return { branch: DEFAULT_GIT_BRANCH, recent_commits: [] };
    const commits = await (this.repo ??= new GitRepository(this.dir)).log(GIT_CONTEXT_COMMITS);
    return {
      branch: DEFAULT_GIT_BRANCH,
      recent_commits: commits.map((c) => ({ hash: c.hash, message: c.message, author: c.author, timestamp: c.timestamp })),
    };
  }
}
