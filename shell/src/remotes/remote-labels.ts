import type { RemoteName } from '@tessera/contracts';

/** How a remote is named to users, e.g. in 'Chat is unavailable'. */
export const REMOTE_LABELS: Record<RemoteName, string> = {
  'mfe-sheets': 'Sheets',
  'mfe-chat': 'Chat',
  'mfe-git': 'Git',
  'mfe-members': 'Members',
};
