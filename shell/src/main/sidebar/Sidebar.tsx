import { Box, IconButton } from '@chakra-ui/react';
import { memo } from 'react';
import { SIDEBAR_ICON_WIDTH, SIDEBAR_MOBILE_WIDTH, SIDEBAR_WIDTH } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { SheetsIcon } from '../icons.js';
import type { SidebarState } from './use-sidebar.js';

/**
 * The left sidebar with the Navigator remote: 16rem, 3rem as icons, and
 * off-canvas (18rem) below 768 px (spec 01 §9).
 */
export const Sidebar = memo(function Sidebar({ sidebar }: { sidebar: SidebarState }) {
  const { mobile, expanded, mobileOpen, toggle, closeMobile } = sidebar;
  const showNavigator = mobile ? mobileOpen : expanded;
  const state = showNavigator ? 'expanded' : 'collapsed';

  const navigator = (
    // Kept mounted while collapsed, so the tree keeps its state; hidden from view and from tab order.
    <Box display={showNavigator ? 'flex' : 'none'} flexDirection="column" h="full" minH="0" overflow="auto">
      <RemotePlace remote="mfe-sheets" expose="./Navigator" flex="1" />
    </Box>
  );

  if (mobile) {
    return (
      <>
        {mobileOpen && (
          <Box position="fixed" inset="0" bg="blackAlpha.500" zIndex="overlay" onClick={closeMobile} data-testid="sidebar-backdrop" />
        )}
        <Box
          as="aside"
          aria-label="Sidebar"
          data-testid="sidebar"
          data-state={state}
          data-mobile="true"
          position="fixed"
          insetY="0"
          left="0"
          w={SIDEBAR_MOBILE_WIDTH}
          maxW="100vw"
          bg="bg"
          borderRightWidth="1px"
          zIndex="modal"
          transform={mobileOpen ? 'translateX(0)' : 'translateX(-100%)'}
          transition="transform 0.2s ease"
          visibility={mobileOpen ? 'visible' : 'hidden'}
        >
          {navigator}
        </Box>
      </>
    );
  }

  return (
    <Box
      as="aside"
      aria-label="Sidebar"
      data-testid="sidebar"
      data-state={state}
      data-mobile="false"
      flexShrink={0}
      w={expanded ? SIDEBAR_WIDTH : SIDEBAR_ICON_WIDTH}
      h="full"
      borderRightWidth="1px"
      bg="bg.subtle"
      transition="width 0.2s ease"
      overflow="hidden"
    >
      {!expanded && (
        <Box display="flex" flexDirection="column" alignItems="center" pt="2">
          <IconButton aria-label="Sheets" title="Sheets (Ctrl+B)" variant="ghost" size="sm" onClick={toggle}>
            <SheetsIcon />
          </IconButton>
        </Box>
      )}
      {navigator}
    </Box>
  );
});
