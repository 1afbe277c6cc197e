import { Box, Button, Flex, HStack, IconButton, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { useNavigate } from 'react-router';
import type { ConnectionState } from '@tessera/contracts';
import { logout } from '../../auth/auth.api.js';
import { useServices } from '../../services/services.context.js';
import { AboutDialog } from '../../health/AboutDialog.js';
import { ChatIcon, SidebarIcon } from '../icons.js';
import { MembersToggle } from '../panels/MembersDock.js';
import { ConnectionDot } from './ConnectionDot.js';
import { HeaderParts } from './HeaderParts.js';

export interface HeaderProps {
  /** The route's sheet, its name once the Workspace reported it. */
  sheet: { id: string | null; name: string | null };
  connection: ConnectionState;
  onToggleSidebar(): void;
  chatOpen: boolean;
  onToggleChat(): void;
  membersOpen: boolean;
  onToggleMembers(): void;
}

/**
 * The header: sidebar toggle and the sheet menu bar on the left; the
 * utilities cluster (connection dot, About, account) and the chat toggle at
 * the top right, with the Members button. Header parts that remotes expose join the cluster in later
 * issues, as quiet remote places.
 */
export const Header = memo(function Header({ sheet, connection, onToggleSidebar, chatOpen, onToggleChat, membersOpen, onToggleMembers }: HeaderProps) {
  const services = useServices();
  const navigate = useNavigate();
  return (
    <Flex as="header" align="center" gap="2" h="12" px="2" borderBottomWidth="1px" flexShrink={0} bg="bg">
      <IconButton aria-label="Toggle sidebar" title="Toggle sidebar (Ctrl+B)" variant="ghost" size="sm" onClick={onToggleSidebar} data-testid="sidebar-toggle">
        <SidebarIcon />
      </IconButton>
      <HStack role="menubar" aria-label="Sheet" gap="1" minW="0" flex="1" data-testid="sheet-menu-bar">
        <Button role="menuitem" size="sm" variant="ghost" onClick={() => navigate('/sheets')}>
          Sheets
        </Button>
        {sheet.id && (
          // The sheet's name once the Workspace reported it; nothing but the separator while it loads.
          <Text fontSize="sm" color="fg.muted" truncate data-testid="current-sheet" title={sheet.name ?? undefined}>
            / {sheet.name ?? ''}
          </Text>
        )}
      </HStack>
      <HStack role="toolbar" aria-label="Utilities" gap="2" data-testid="utilities">
        <Box data-testid="header-parts" display="flex" alignItems="center" gap="2">
          <HeaderParts />
        </Box>
        <ConnectionDot state={connection} />
        <AboutDialog />
        <MembersToggle open={membersOpen} onToggle={onToggleMembers} />
        <Button size="sm" variant="ghost" onClick={() => void logout(services)} data-testid="logout-button">
          Log out
        </Button>
        <IconButton
          aria-label={chatOpen ? 'Hide chat' : 'Show chat'}
          aria-pressed={chatOpen}
          title={chatOpen ? 'Hide chat' : 'Show chat'}
          variant={chatOpen ? 'subtle' : 'ghost'}
          size="sm"
          onClick={onToggleChat}
          data-testid="chat-toggle"
        >
          <ChatIcon />
        </IconButton>
      </HStack>
    </Flex>
  );
});
