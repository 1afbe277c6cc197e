import type { ShellContext } from '@tessera/contracts';

/**
 * Who is online: the workspace presence the shell holds, plus the signed-in user, who is
 * online by being here (until the live connection fills the presence, only oneself).
 */
export function onlineUserIds(shell: Pick<ShellContext, 'presence' | 'user'>): Set<string> {
  return new Set([...shell.presence.online, shell.user.id]);
}
