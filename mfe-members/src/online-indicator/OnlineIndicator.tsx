import { HStack, Text } from '@chakra-ui/react';
import { MESSAGES, type RemoteProps } from '@tessera/contracts';
import { steadyShell } from '@tessera/ui-kit';
import { OnlineDot } from '../presence/OnlineDot.js';
import { onlineUserIds } from '../presence/online-users.js';

const MAX_DOTS = 3;

/** The header's online-users indicator (spec 01 §2): 'No users online', or up to 3 dots, '+N' and 'N online'. */
function OnlineIndicator({ shell }: RemoteProps) {
  return <OnlineUsers ids={[...onlineUserIds(shell)]} />;
}

/** It shows who is online: a new context for an edit or a selection does not render it. */
export default steadyShell(OnlineIndicator, (shell) => [shell.presence.online, shell.user.id]);

/** The indicator for a list of online user ids. */
export function OnlineUsers({ ids: online }: { ids: string[] }) {
  if (online.length === 0) {
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="online-indicator">
        {MESSAGES.noUsersOnline}
      </Text>
    );
  }
  const extra = online.length - MAX_DOTS;
  return (
    <HStack gap="1" data-testid="online-indicator" aria-label={`${online.length} online`}>
      {online.slice(0, MAX_DOTS).map((id) => (
        <OnlineDot key={id} online />
      ))}
      {extra > 0 && (
        <Text fontSize="xs" color="fg.muted">
          +{extra}
        </Text>
      )}
      <Text fontSize="sm" color="fg.muted">
        {online.length} online
      </Text>
    </HStack>
  );
}
