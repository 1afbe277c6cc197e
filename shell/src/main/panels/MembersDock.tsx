import { useState } from 'react';
import { Box, Button } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { MembersIcon } from '../icons.js';

/**
 * The floating Members button at the bottom left of the main area and the
 * MembersPanel remote it toggles (spec 01 §2). Placed by its positioned parent.
 */
export function MembersDock({ shell }: { shell: ShellContext }) {
  const [open, setOpen] = useState(false);
  // The remote loads when first shown, then stays mounted so closing keeps its state.
  const [shown, setShown] = useState(false);
  const toggle = () => {
    setShown(true);
    setOpen((o) => !o);
  };
  return (
    <>
      {shown && (
        <Box
          display={open ? 'block' : 'none'}
          role="dialog"
          aria-label="Members"
          data-testid="members-panel"
          position="absolute"
          left="4"
          bottom="16"
          w="min(44rem, calc(100vw - 2rem))"
          maxH="70vh"
          overflow="auto"
          bg="bg"
          borderWidth="1px"
          borderRadius="lg"
          boxShadow="lg"
          zIndex="docked"
        >
          <RemotePlace remote="mfe-members" expose="./MembersPanel" shell={shell} />
        </Box>
      )}
      <Button
        position="absolute"
        left="4"
        bottom="4"
        zIndex="docked"
        size="sm"
        boxShadow="md"
        variant={open ? 'solid' : 'outline'}
        bg={open ? undefined : 'bg'}
        aria-expanded={open}
        onClick={toggle}
        data-testid="members-toggle"
      >
        <MembersIcon /> Members
      </Button>
    </>
  );
}
