import { Box, Flex, Tabs } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { memo } from 'react';
import type { ShellTab } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { NoSheetPlaceholder } from './NoSheetPlaceholder.js';
import { RemoteMounts } from './RemoteMounts.js';

export type MainView = 'sheets' | 'settings';

/**
 * The main area: the data tab (Workspace remote, or the no-sheet placeholder)
 * and the git tab (GitPanel remote); the tab lives in the URL (?tab=), so a
 * reload or a link reopens it. /settings shows the account settings instead.
 */
export const MainArea = memo(function MainArea({ view, tab, sheetOpen }: { view: MainView; tab: ShellTab; sheetOpen: boolean }) {
  const [, setSearch] = useSearchParams();

  if (view === 'settings') {
    return <RemotePlace remote="mfe-members" expose="./AccountSettings" h="full" overflow="auto" />;
  }

  const selectTab = (tab: ShellTab) =>
    setSearch((previous) => {
      const next = new URLSearchParams(previous);
      next.set('tab', tab);
      return next;
    });

  return (
    <Flex direction="column" h="full" minH="0">
      {/* Modules a remote shows inside itself (the Workspace's Code tab), through shell.remotes. */}
      <RemoteMounts />
      <RemotePlace remote="mfe-chat" expose="./RecoveryBanner" quiet />
      {/* lazyMount: a tab's remote code loads only once the tab is shown. */}
      <Tabs.Root
        value={tab}
        onValueChange={(e) => selectTab(e.value as ShellTab)}
        lazyMount
        size="sm"
        display="flex"
        flexDirection="column"
        flex="1"
        minH="0"
      >
        <Tabs.List px="2" flexShrink={0}>
          <Tabs.Trigger value="data" data-testid="tab-data">
            Data
          </Tabs.Trigger>
          <Tabs.Trigger value="git" data-testid="tab-git">
            Git
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="data" flex="1" minH="0" p="0" overflow="auto">
          {sheetOpen ? (
            <RemotePlace remote="mfe-sheets" expose="./Workspace" h="full" />
          ) : (
            <NoSheetPlaceholder />
          )}
        </Tabs.Content>
        <Tabs.Content value="git" flex="1" minH="0" p="0" overflow="auto">
          <Box h="full">
            <RemotePlace remote="mfe-git" expose="./GitPanel" h="full" />
          </Box>
        </Tabs.Content>
      </Tabs.Root>
    </Flex>
  );
});
