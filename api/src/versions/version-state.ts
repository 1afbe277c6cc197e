import { ERROR_CODES, type VersionStatus } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';

/** What a user can do to a version. Restore is a checkout of a snapshot (DESIGN § Versions). */
export type VersionAction = 'accept' | 'checkout' | 'restore' | 'discard';

/** new_live: the version's content becomes a new live version (the previous live one is archived); removed: gone from the history. */
export type VersionOutcome = 'new_live' | 'removed';

/** The allowed transitions; every other (action, status) pair is refused with the message in REFUSED. */
export const TRANSITIONS: Record<VersionAction, Partial<Record<VersionStatus, VersionOutcome>>> = {
  accept: { proposed: 'new_live' },
  checkout: { archived: 'new_live' },
  restore: { archived: 'new_live' },
  discard: { proposed: 'removed', archived: 'removed' },
};

const REFUSED: Record<VersionAction, Partial<Record<VersionStatus, string>>> = {
  accept: {
    live: 'This version is already live',
    archived: 'Only a proposed version can be accepted; check out an archived version instead',
  },
  checkout: {
    live: 'This version is already live',
    proposed: 'A proposed version is applied by accepting it, not by checking it out',
  },
  restore: {
    live: 'This version is already live',
    proposed: 'A proposed version is applied by accepting it, not by restoring it',
  },
  discard: { live: 'The live version cannot be discarded; check out another version first' },
};

/** The outcome of `action` on a version in `status`, or a 409 saying why it is refused. */
export function transition(action: VersionAction, status: VersionStatus): VersionOutcome {
  const outcome = TRANSITIONS[action][status];
  if (outcome) return outcome;
  throw new HttpError(409, ERROR_CODES.conflict, REFUSED[action][status] ?? `Cannot ${action} a ${status} version`, { action, status });
}
