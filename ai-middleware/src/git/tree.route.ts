import { DEFAULT_GIT_BRANCH, FILE_TREE_CAP, type GitTreeResponse } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { buildTree } from './listing-rules.js';
import type { GitRepository } from './repository.service.js';

/** GET /git/tree: the head's files under the listing rules of spec 02 §5. */
export function registerTreeRoute(scope: FastifyInstance, repo: GitRepository): void {
  scope.get('/git/tree', async (): Promise<GitTreeResponse> => {
    const head = await repo.head();
    const { files, listing } = await repo.listing(head);
    // Only the listed files' times are asked for: the walk back stops once those are known.
    const times = head ? await repo.fileTimes.at(head, listing.listed.map((f) => f.path)) : new Map<string, number>();
    const entries = await Promise.all(
      listing.listed.map(async (f) => ({
        path: f.path,
        type: 'file' as const,
        size: await repo.store.blobSize(f.oid),
        modified: new Date((times.get(f.path) ?? 0) * 1000).toISOString(),
      })),
    );
    return {
      files: entries,
      tree: buildTree(entries.map((e) => e.path)),
      repository: { branch: DEFAULT_GIT_BRANCH, head, empty: head === null },
      metadata: {
        total_files: files.length,
        matched_files: listing.matched,
        relaxed: listing.relaxed,
        truncated: listing.truncated,
        cap: FILE_TREE_CAP,
      },
    };
  });
}
