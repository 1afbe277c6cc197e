import { Box, Button } from '@chakra-ui/react';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { MembersIcon } from '../icons.js';

/**
 * The Members button (spec 01 §2), in the header's utilities so it covers nothing of the grid.
 * MainLayout holds whether the panel is open.
 */
export function MembersToggle({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <Button size="sm" variant={open ? 'subtle' : 'ghost'} aria-expanded={open} onClick={onToggle} data-testid="members-toggle">
      <MembersIcon /> Members
    </Button>
  );
}

/**
 * The MembersPanel remote, over the bottom left of the main area (never over its tabs or the chat panel),
 * placed by its positioned parent. It mounts on every opening, so the users list loads each
 * time it is opened (spec 01 §2), not only the first.
 */
export function MembersPanelBox() {
  return (
    <Box
      role="dialog"
      aria-label="Members"
      data-testid="members-panel"
      position="absolute"
      left="4"
      bottom="4"
      w="min(44rem, calc(100% - 2rem))"
      maxH="70vh"
      overflow="auto"
      bg="bg"
      borderWidth="1px"
      borderRadius="lg"
      boxShadow="lg"
      zIndex="docked"
    >
      <RemotePlace remote="mfe-members" expose="./MembersPanel" />
    </Box>
  );
}
