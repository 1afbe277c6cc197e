/** The join and leave toasts (spec 01 §2), texts copied exactly. */
export const PRESENCE_TOAST_TEXTS = { joined: 'joined the sheet', left: 'left the sheet' } as const;

/** The name a toast shows: the nickname or username the server sent, else 'User' plus the first 8 characters of the id. */
export function presenceName(userId: string, displayName: string | null | undefined): string {
  const name = displayName?.trim();
  return name ? name : `User ${userId.slice(0, 8)}`;
}
