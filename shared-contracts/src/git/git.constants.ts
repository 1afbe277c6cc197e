/** Limits of the code repository (issue 9). Spec 02 §9 constants stay in constants.ts. */
export const GIT_MAX_FILE_BYTES = 1024 * 1024;
export const GIT_MAX_CHANGES_PER_COMMIT = 500;
export const GIT_MAX_HISTORY_LIMIT = 1000;
export const GIT_AUTHOR_EMAIL_DOMAIN = 'tessera.local';
export const GIT_SHEET_VERSION_TRAILER = 'Sheet-Version';
/** File listing rules (spec 02 §5). */
export const GIT_LISTED_EXTENSIONS = ['py', 'js', 'ts', 'tsx', 'go', 'md', 'json', 'txt'] as const;

/** error.code values the /git routes add to ERROR_CODES. */
export const GIT_ERROR_CODES = {
  invalidPath: 'invalid_path',
  fileTooLarge: 'file_too_large',
  pathConflict: 'path_conflict',
  duplicatePath: 'duplicate_path',
  invalidCommit: 'invalid_commit',
  commitNotFound: 'commit_not_found',
  fileNotFound: 'file_not_found',
} as const;
