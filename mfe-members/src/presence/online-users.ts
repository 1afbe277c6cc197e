import type { ShellContext } from '@tessera/contracts';

/**
 * Who is online: the workspace presence the shell holds (its socket `/live`), plus the
 * signed-in user, who is online by being here (also while that socket is not connected).
 */
export function onlineUserIds(shell: Pick<ShellContext, 'presence' | 'user'>): Set<string> {
  return new Set([...shell.presence.online, shell.user.id]);
}
