import { GIT_AUTHOR_EMAIL_DOMAIN, GIT_SHEET_VERSION_TRAILER } from '@tessera/contracts';

export interface GitIdentity {
  name: string;
  email: string;
}

/** The signed-in user as a git author: `<username> <username@tessera.local>`, with characters git headers cannot hold removed. */
export function authorFor(username: string): GitIdentity {
  const name = username.replace(/[<>\n\r\0]/g, '').trim() || 'unknown';
  const local = username.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+|[.-]+$/g, '') || 'user';
  return { name, email: `${local}@${GIT_AUTHOR_EMAIL_DOMAIN}` };
}

const TRAILER = new RegExp(`^${GIT_SHEET_VERSION_TRAILER}:\\s*(\\d+)\\s*$`, 'm');

/** The commit message as git stores it: the text, then a `Sheet-Version: N` trailer paragraph when given. */
export function composeMessage(message: string, sheetVersion: number | undefined): string {
  const text = message.replace(/\r\n/g, '\n').trim();
  return sheetVersion === undefined ? `${text}\n` : `${text}\n\n${GIT_SHEET_VERSION_TRAILER}: ${sheetVersion}\n`;
}

/** Splits a stored message into the text shown and the sheet version of its last paragraph's trailer. */
export function parseMessage(raw: string): { message: string; sheetVersion: number | null } {
  const text = raw.replace(/\s+$/, '');
  const cut = text.lastIndexOf('\n\n');
  const last = cut === -1 ? '' : text.slice(cut + 2);
  const match = TRAILER.exec(last);
  if (!match) return { message: text, sheetVersion: null };
  const rest = last
    .split('\n')
    .filter((line) => !TRAILER.test(line))
    .join('\n');
  const message = rest ? `${text.slice(0, cut)}\n\n${rest}` : text.slice(0, cut);
  return { message, sheetVersion: Number(match[1]) };
}
