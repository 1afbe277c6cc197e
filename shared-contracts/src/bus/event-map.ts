/**
 * Every browser event of both specs with its payload. The bus is typed by this
 * map, so emitting a wrong payload does not compile.
 */
export interface EventMap {
  'sheet-created': { sheetId: string; name: string };
  'sheet-updated': { sheetId: string; name?: string; version?: number };
  'sheet-loaded': { sheetId: string };
  'sheet-history-refresh': { sheetId: string };
  'sheet-snapshot-received': { sheetId: string; version: number };
  'sheet-snapshot-merged': { sheetId: string; version: number };
  'sheet-snapshot-merge-error': { sheetId: string; error: string };
  'sheet-proposal': { sheetId: string; versionId: string };
  /** Show this chart (a chat message's link to a chart the AI made): the Workspace on that sheet scrolls to it and outlines it. */
  'chart-focus': { sheetId: string; chartId: string };
  /**
   * Asks the Workspace to preview a version of a sheet (the git tab's Preview; AI Editing Mode's
   * staged edit, `staged`: its Commit / Discard decide, the preview offers no Apply); null ends it.
   */
  'sheet-version-preview': { sheetId: string; versionId: string | null; staged?: boolean };
  /** The Workspace now previews this version of the sheet (null: no preview any more). */
  'sheet-version-previewing': { sheetId: string; versionId: string | null };
  /** The signed-in user saved their own nickname or email (account settings): the shell updates its menu. */
  'profile-updated': { userId: string; nickname: string | null; email: string | null };
  /**
   * Someone changed the navigation (a sheet or group created, updated or deleted), told by the
   * workspace socket `/live` or a sheet socket: navigators reload their tree. `id` is the
   * sheet's or group's id and `userId` who made the change, when the frame says.
   */
  'navigation-changed': { type: string; id: string | null; userId: string | null };
  /**
   * The server's phase of one of this user's imports (the workspace socket's `import_progress`):
   * `importId` is the id its client sent with the upload.
   */
  'import-progress': { importId: string; rowsStored: number; rowsTotal: number };
  'create-sheet-from-chat': {
    name: string;
    headers: string[];
    rows: (string | number | boolean | null)[][];
    origin?: 'schedule_auto' | 'schedule_manual_retry' | 'ai';
  };
}

export type EventName = keyof EventMap;
