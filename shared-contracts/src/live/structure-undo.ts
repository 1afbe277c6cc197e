/**
 * Ctrl+Z of a rows_remove or columns_remove done by the server (live.schema.ts: `undo` on a
 * rows_insert / columns_insert): the insert's new rows or columns are filled with the cells the
 * remove took, read from the version just before it. A windowed sheet of a million rows removes a
 * column without reading its million cells first, and still gets it back whole on Ctrl+Z.
 */
export const STRUCTURE_UNDO_TEXTS = {
  /** `undo` names a version that is not a remove on the insert's axis, or one of another count (or past the sheet's last version). */
  notRemove: (version: number) => `Version ${version} of this sheet is not a removal of these rows or columns: there is nothing to put back there`,
  /** The whole grid was replaced since the remove (a version restored, an import or a save over it). */
  replaced: 'Your rows or columns were not put back: the whole sheet was replaced since they were removed',
  /** The versions before the remove are no longer kept. */
  unavailable: 'Your rows or columns were not put back: the sheet no longer keeps its history from before they were removed',
} as const;
