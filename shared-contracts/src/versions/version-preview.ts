import type { VersionStatus } from './versions.schema.js';

/**
 * The read-only preview of a sheet version (spec 02 §2 "version preview banner", §4 "Preview"),
 * the cell history (grist-core#2372) and the git tab's versions list. The texts the spec gives
 * are copied exactly; the others are ours.
 */
export const VERSION_PREVIEW_TEXTS = {
  apply: 'Apply',
  exit: 'Exit Preview',
  /** In place of Apply and Exit Preview while the preview is AI Editing Mode's staged edit. */
  staged: 'AI Editing Mode: Commit or Discard it with the badge in the header',
  loading: 'Loading version...',
  /** The grid's context-menu entry that opens a cell's history. */
  cellHistory: 'Cell history',
  cellHistoryLoading: 'Loading history...',
  cellHistoryEmpty: 'No changes recorded for this cell',
  close: 'Close',
  versionsTitle: 'Sheet versions',
  versionsEmpty: 'No versions yet',
  versionsNoSheet: 'Select a sheet to see its versions',
  preview: 'Preview',
  accept: 'Accept',
  checkout: 'Checkout',
  discard: 'Discard',
  label: 'Name',
  saveLabel: 'Save',
  refresh: 'Refresh',
  unknownAuthor: 'Unknown',
} as const;

/** The banner of spec 02 §2: 'Previewing version #N'; a proposal, which has no number yet, shows its short id. */
export const previewingVersion = (version: number | string) => `Previewing version #${version}`;

/** How a version is named in lists and the banner: its number, else (a proposal) the first 8 characters of its id. */
export const versionName = (entry: { version: number | null; version_id: string }) => (entry.version !== null ? String(entry.version) : entry.version_id.slice(0, 8));

/** '{n} cells differ from the live version' under the banner. */
export const previewDifferenceLabel = (count: number) => `${count} ${count === 1 ? 'cell differs' : 'cells differ'} from the live version`;

export const cellHistoryTitle = (cellName: string) => `History of ${cellName}`;
export const failedToLoadVersion = (detail: string) => `Failed to load version: ${detail}`;
export const failedToLoadCellHistory = (detail: string) => `Failed to load cell history: ${detail}`;
export const failedToLoadVersions = (detail: string) => `Failed to load versions: ${detail}`;
export const failedVersionAction = (action: 'accept' | 'checkout' | 'discard' | 'label', detail: string) => `Failed to ${action} version: ${detail}`;
/** A cell's value as the history shows it: blank for empty. */
export const cellValueText = (value: string | number | boolean | null) => (value === null || value === '' ? '(empty)' : String(value));

/**
 * What Apply does to a version (spec 02 §4): a proposal is accepted, any other version checked
 * out; the live version is what the sheet already shows, so nothing.
 */
export function applyAction(status: VersionStatus): 'accept' | 'checkout' | null {
  if (status === 'proposed') return 'accept';
  if (status === 'archived') return 'checkout';
  return null;
}

/** The actions the versions list offers per status (the live version cannot be discarded). */
export function versionActions(status: VersionStatus): Array<'accept' | 'checkout' | 'discard'> {
  if (status === 'proposed') return ['accept', 'discard'];
  if (status === 'archived') return ['checkout', 'discard'];
  return [];
}
