import { useState } from 'react';
import { Box, Button } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { MembersIcon } from '../icons.js';

/**
 * The Members button, in the header's utilities, and the MembersPanel remote it toggles
 * (spec 01 §2). The button sits in the header so it covers nothing of the grid; the panel
 * drops down under it. The panel mounts on every opening, so the users list loads each time
 * it is opened (spec 01 §2), not only the first.
 */
export function MembersDock({ shell }: { shell: ShellContext }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant={open ? 'subtle' : 'ghost'}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="members-toggle"
      >
        <MembersIcon /> Members
      </Button>
      {open && (
        <Box
          role="dialog"
          aria-label="Members"
          data-testid="members-panel"
          position="fixed"
          right="4"
          top="14"
          w="min(44rem, calc(100vw - 2rem))"
          maxH="70vh"
          overflow="auto"
          bg="bg"
          borderWidth="1px"
          borderRadius="lg"
          boxShadow="lg"
          zIndex="dropdown"
        >
          <RemotePlace remote="mfe-members" expose="./MembersPanel" shell={shell} />
        </Box>
      )}
    </>
  );
}
