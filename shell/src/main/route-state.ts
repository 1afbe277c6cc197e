import type { ShellTab } from '@tessera/contracts';

/** The sheet id in /sheets/:sheetId, or null. */
export function sheetIdFromPath(pathname: string): string | null {
  const match = /^\/sheets\/([^/]+)\/?$/.exec(pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** ?tab=git opens the git tab; anything else is the data tab. */
export function tabFromSearch(search: URLSearchParams): ShellTab {
  return search.get('tab') === 'git' ? 'git' : 'data';
}

/** The path of a sheet (or of no sheet) on a tab: /sheets/:sheetId?tab=data|git. */
export function sheetPath(id: string | null, tab: ShellTab): string {
  return `${id ? `/sheets/${encodeURIComponent(id)}` : '/sheets'}?tab=${tab}`;
}
