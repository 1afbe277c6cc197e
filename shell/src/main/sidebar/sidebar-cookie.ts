import { SIDEBAR_COOKIE_MAX_AGE_S, SIDEBAR_COOKIE_NAME } from '@tessera/contracts';

/** Whether the sidebar was left expanded; expanded when nothing was remembered. */
export function readSidebarCookie(doc: Document = document): boolean {
  for (const part of doc.cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE_NAME) return value !== 'false';
  }
  return true;
}

/** Remembers the sidebar state for 7 days (spec 01 §9). */
export function writeSidebarCookie(expanded: boolean, doc: Document = document): void {
  doc.cookie = `${SIDEBAR_COOKIE_NAME}=${expanded}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
