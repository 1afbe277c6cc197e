import { CHAT_CURRENT_SESSION_STORAGE_KEY } from '@tessera/contracts';

/**
 * The current chat session's id, kept in local storage (spec 02 §3) per signed-in user, so a
 * reload opens the same session; another person on the same browser keeps their own.
 */
const key = (userId: string) => `${CHAT_CURRENT_SESSION_STORAGE_KEY}.${userId}`;

export function readCurrentSession(userId: string, storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(key(userId));
  } catch {
    return null;
  }
}

export function writeCurrentSession(userId: string, sessionId: string | null, storage: Storage = localStorage): void {
  try {
    if (sessionId) storage.setItem(key(userId), sessionId);
    else storage.removeItem(key(userId));
  } catch {
    // Storage full or off: the session is only not remembered across reloads.
  }
}
