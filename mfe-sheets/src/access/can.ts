import { meetsAccess, type AccessLevel, type AccessNeed } from '@tessera/contracts';

/**
 * May the user do what needs `need` on an item of level `level`? A reply without a level (an
 * api before issue 18) leaves everything offered: the server decides either way.
 */
export const can = (level: AccessLevel | undefined | null, need: AccessNeed): boolean => level == null || meetsAccess(level, need);
