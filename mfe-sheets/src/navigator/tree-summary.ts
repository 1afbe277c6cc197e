import { fileSizeLabel, GROUP_BADGE_CAP, GROUP_BADGE_CAP_LABEL, RECENT_WINDOW_DAYS, type GroupTree, type GroupTreeNode, type SheetSummary } from '@tessera/contracts';

/** The badge of a group: how many groups and sheets it holds directly, capped at '20+'. */
export function groupBadgeLabel(node: GroupTreeNode): string {
  const count = node.children.length + node.sheets.length;
  return count > GROUP_BADGE_CAP ? GROUP_BADGE_CAP_LABEL : String(count);
}

/** 'N rows • M cols' of a sheet (§2), and its size when the server says it ('12 rows • 3 cols • 1.5 KB'). */
export function sheetSizeLabel(sheet: SheetSummary): string {
  const shape = `${sheet.metadata.rows} rows • ${sheet.metadata.columns} cols`;
  return sheet.metadata.size === undefined ? shape : `${shape} • ${fileSizeLabel(sheet.metadata.size)}`;
}

/** A sheet is recent when updated within the last 7 days (§2 green dot). */
export function isRecentlyUpdated(sheet: SheetSummary, now: number = Date.now()): boolean {
  const updated = Date.parse(sheet.updated_at);
  return Number.isFinite(updated) && now - updated <= RECENT_WINDOW_DAYS * 24 * 60 * 60 * 1000;
}

/** Every sheet and group of the tree, at any depth, for the footer. */
export function countTree(tree: GroupTree): { sheets: number; groups: number } {
  const totals = { sheets: tree.sheets.length, groups: 0 };
  const visit = (node: GroupTreeNode) => {
    totals.groups += 1;
    totals.sheets += node.sheets.length;
    node.children.forEach(visit);
  };
  tree.groups.forEach(visit);
  return totals;
}
