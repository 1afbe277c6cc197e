import { randomBytes } from 'node:crypto';

/**
 * A tag for the names a spec file makes (sheets, groups, members): the database is shared by every
 * spec, and two workers can load two files in the same millisecond, so the time alone is not
 * enough; the random part keeps one file's search for its own names from finding another's.
 */
export function runId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}
