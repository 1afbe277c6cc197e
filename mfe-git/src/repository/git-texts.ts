/**
 * Texts of the code repository the user sees (spec 02 §2, §4, §5, §8), copied
 * exactly. They live in this remote, not in the shared contracts: the
 * contracts are a singleton that the shell provides at run time, so a value
 * added to them after the shell was built would be undefined here (an e2e run
 * against an older shell build showed it). Types and schemas, which the shell's
 * contracts already hold, still come from @tessera/contracts.
 */
export const GIT_TEXTS = {
  committed: 'Committed',
  committedVerified: 'Committed (verified)',
  conflictBadge: 'Conflict',
  conflict: 'Conflict: refresh and retry',
  noResponse: 'No response returned',
  noResponseVerifyFailed: 'No response & verify failed',
  saveFailed: 'Save failed',
  baseUpdated: 'Base updated – retry Save',
  baseRefreshFailed: 'Failed to refresh base',
  noContent: 'No content',
  contentFailed: 'Failed',
} as const;

/** The default commit message (spec 02 §5). */
export const defaultCommitMessage = (path: string) => `Update ${path}`;

/** The dataTransfer type of a path dragged from the git tree into the chat's Git Files zone (DESIGN.md). */
export const GIT_PATH_DRAG_TYPE = 'application/x-tessera-path';
