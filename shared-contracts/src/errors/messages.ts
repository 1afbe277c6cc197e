/** User-visible texts of spec 01 §2/§8 and spec 02 §8, copied exactly. */
export const MESSAGES = {
  invalidCredentials: 'Invalid credentials',
  signupFailed: 'Signup failed',
  signupClosed: 'Signup disabled. Contact an admin for a new account.',
  updateFailed: 'Update failed',
  createFailed: 'Create failed',
  promoteFailed: 'Promote failed',
  passwordUpdated: 'Password updated',
  passwordChangeFailed: 'Password change failed',
  confirmDeleteUser: 'Delete user?',
  confirmDeleteItem: 'Are you sure you want to delete this group or sheet?',
  sheetNameEmpty: 'Sheet name cannot be empty',
  sheetNameTooLong: 'Sheet name cannot exceed 100 characters',
  sheetNameInvalid: 'Sheet name contains invalid characters',
  noSheetForExport: 'No sheet selected for export',
  unknownError: 'Unknown error occurred',
  genericFallbackTitle: 'Something went wrong',
  genericFallbackBody: 'An unexpected error occurred. Please refresh the page to continue.',
  noSheetSelected: 'No Sheet Selected',
  noSheetSelectedHint: 'Select a sheet from the sidebar to get started',
  loadingSheet: 'Loading sheet...',
  emptyRepository: 'No commits yet — create your first file to initialize the repository.',
  noUsersOnline: 'No users online',
  tooManyLoginAttempts: 'Too many failed sign-in attempts.',
  exportFailed: 'Export failed',
  sheetNotFound: 'Sheet not found',
  failedToDuplicateSheet: 'Failed to duplicate sheet',
  failedToRenameSheet: 'Failed to rename sheet',
  /** Ours: the spec names the sheet's text only. */
  failedToRenameGroup: 'Failed to rename group',
  noSheetForFileOperations: 'Select a sheet to see file operations',
} as const;

/** The toolbar's save status (spec 01 §4). */
export const SAVE_STATUS_LABELS = { error: 'Error', saved: 'Saved', unsaved: 'Unsaved' } as const;

/**
 * Ours (the spec has no text for it): a sheet loaded whole with more cells than the grid's formula
 * engine takes (mfe-sheets FORMULA_MAX_CELLS), shown over the grid while its formulas show as text.
 */
export const formulasOverLimit = (cells: number, maxCells: number) =>
  `This sheet has more cells than formulas can be computed for (${cells.toLocaleString('en-US')} of at most ${maxCells.toLocaleString('en-US')}): formulas show as text.`;

export const unsupportedExportFormat = (format: string) => `Unsupported export format: ${format}`;
export const confirmDeleteSheet = (name: string) => `Delete "${name}"?`;

/** Sheet service failures (spec 01 §8); `detail` is '{status} {statusText}' of the reply, or the transport's message. */
export const failedToLoadSheet = (detail: string) => `Failed to load sheet: ${detail}`;
export const failedToSaveSheet = (detail: string) => `Failed to save sheet: ${detail}`;
export const failedToDeleteSheet = (detail: string) => `Failed to delete sheet: ${detail}`;
export const failedToCreateSheet = (detail: string) => `Failed to create sheet: ${detail}`;
/** The sheet list's failure: the list shows as empty, with this text under the navigator's own. */
export const failedToListSheets = (detail: string) => `Failed to list sheets: ${detail}`;

/**
 * The toolbar's Timeline menu (spec 01 §2, spec 02 §2: 'a Timeline menu with a Snapshots list
 * and refresh'). The spec names no texts for its loading, empty, failure and confirmation
 * states; these follow the 'Failed to … sheet: {detail}' pattern of §8.
 */
export const TIMELINE_TEXTS = {
  menu: 'Timeline',
  title: 'Snapshots',
  refresh: 'Refresh',
  restore: 'Restore',
  loading: 'Loading snapshots...',
  empty: 'No snapshots yet',
  unknownAuthor: 'Unknown',
  current: 'current',
} as const;
/** A Timeline entry's changed-cell count; a whole-grid version (create, import) has none. */
export const snapshotDeltaLabel = (delta: number | null) => (delta === null ? 'whole sheet' : `${delta} ${delta === 1 ? 'cell' : 'cells'}`);
export const failedToLoadSnapshots = (detail: string) => `Failed to load snapshots: ${detail}`;
export const failedToRestoreSnapshot = (detail: string) => `Failed to restore snapshot: ${detail}`;
export const confirmRestoreSnapshot = (version: number) => `Restore version #${version}?`;
export const confirmRestoreSnapshotDetail = 'The sheet takes that content as a new version; nothing in between is lost from history.';

/**
 * Ours (the spec has no text for them): on a sheet opened windowed, what needs rows the grid does not
 * hold reads them first (Copy, Cut, Delete of whole columns, a Ctrl+Arrow jump); the grid says so while it reads, and why nothing was done when it could not be.
 */
export const WINDOWED_READ_TEXTS = {
  reading: (rows: number) => `Reading ${rows.toLocaleString('en-US')} rows…`,
  unreadable: "The sheet's rows could not be read: nothing was done. Try again.",
  clipboardRefused: 'The browser did not let the clipboard be written: nothing was copied.',
  /** A copy whose text would pass `maxChars` characters (about as many bytes): refused before it is built. */
  tooLarge: (maxChars: number) =>
    `Too much to copy at once: the columns selected hold more than ${maxChars.toLocaleString('en-US')} characters. Select fewer columns.`,
} as const;
