import { ERROR_CODES, type GitConflictDetails } from '@tessera/contracts';

/** A refusal the /git routes turn into `{ error: { code, message, details? } }` with this status. */
export class GitRequestError extends Error {
  override name = 'GitRequestError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function conflictError(message: string, details: GitConflictDetails): GitRequestError {
  return new GitRequestError(409, ERROR_CODES.conflict, message, details);
}
