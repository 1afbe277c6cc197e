import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Flex } from '@chakra-ui/react';
import { useLocation } from 'react-router';
import type { AuthUser } from '@tessera/contracts';
import { startHealthMonitor } from '../health/health-monitor.js';
import { recordHealth } from '../health/health.store.js';
import { PresenceToasts } from '../live/PresenceToasts.js';
import { useLiveSession } from '../live/use-live-session.js';
import { useServices } from '../services/services.context.js';
import { MainArea } from './area/MainArea.js';
import { CurrentShell } from './current-shell.context.js';
import { Header } from './header/Header.js';
import { ChatPanelArea } from './panels/ChatPanelArea.js';
import { MembersPanelBox } from './panels/MembersDock.js';
import { Sidebar } from './sidebar/Sidebar.js';
import { useSidebar } from './sidebar/use-sidebar.js';
import { useShellContext } from './use-shell-context.js';

/** The main screen (spec 01 §2, spec 02 §2): sidebar, header (with the Members button), main area, chat panel. */
export function MainLayout({ user }: { user: AuthUser }) {
  const services = useServices();
  const liveSession = useLiveSession(user.id);
  const shell = useShellContext(user, liveSession);
  const sidebar = useSidebar();
  const [chatOpen, setChatOpen] = useState(true);
  const [membersOpen, setMembersOpen] = useState(false);
  const view = useLocation().pathname.startsWith('/settings') ? 'settings' : 'sheets';
  // The chrome renders from these few values (memo); the remote places get the context itself (CurrentShell).
  const headerSheet = useMemo(() => ({ id: shell.sheet.id, name: shell.sheet.name }), [shell.sheet.id, shell.sheet.name]);
  const toggleChat = useCallback(() => setChatOpen((o) => !o), []);
  const toggleMembers = useCallback(() => setMembersOpen((o) => !o), []);

  useEffect(() => startHealthMonitor(services.open, recordHealth, { origin: new URL(services.baseUrl || '/', window.location.href).origin }), [services]);

  return (
    <CurrentShell.Provider value={shell}>
      <Flex h="100dvh" w="full" overflow="hidden" data-testid="main-screen">
        <Sidebar sidebar={sidebar} />
        <Flex direction="column" flex="1" minW="0">
          <Header
            sheet={headerSheet}
            connection={shell.live.state}
            onToggleSidebar={sidebar.toggle}
            chatOpen={chatOpen}
            onToggleChat={toggleChat}
            membersOpen={membersOpen}
            onToggleMembers={toggleMembers}
          />
          <Flex flex="1" minH="0" position="relative">
            <Box as="main" flex="1" minW="0" h="full" overflow="hidden" position="relative">
              <MainArea view={view} tab={shell.tab} sheetOpen={shell.sheet.id !== null} />
              {membersOpen && <MembersPanelBox />}
            </Box>
            {chatOpen && <ChatPanelArea />}
          </Flex>
        </Flex>
        <PresenceToasts session={liveSession} />
      </Flex>
    </CurrentShell.Provider>
  );
}
