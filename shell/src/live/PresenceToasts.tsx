import { Box, CloseButton, HStack, Stack, Text } from '@chakra-ui/react';
import { useStore } from 'zustand';
import { PRESENCE_TOAST_TEXTS } from '@tessera/contracts';
import type { LiveSession } from './live-session.js';

/**
 * The join and leave toasts of the open sheet (spec 01 §2): '{name} joined the sheet' or
 * '{name} left the sheet', each gone after 5 s (the session's timer) or when closed by hand.
 */
export function PresenceToasts({ session }: { session: LiveSession }) {
  const toasts = useStore(session.store, (s) => s.toasts);
  if (toasts.length === 0) return null;
  return (
    <Stack position="fixed" bottom="4" right="4" zIndex="toast" gap="2" data-testid="presence-toasts" aria-live="polite">
      {toasts.map((t) => (
        <HStack key={t.id} role="status" bg="bg.panel" borderWidth="1px" borderRadius="md" boxShadow="md" px="3" py="2" gap="2" minW="56">
          <Box w="2" h="2" borderRadius="full" flexShrink={0} bg={t.text === PRESENCE_TOAST_TEXTS.joined ? 'green.500' : 'gray.400'} aria-hidden="true" />
          <Text fontSize="sm" flex="1">
            <Text as="span" fontWeight="semibold">
              {t.name}
            </Text>{' '}
            {t.text}
          </Text>
          <CloseButton size="xs" aria-label="Close" onClick={() => session.dismissToast(t.id)} />
        </HStack>
      ))}
    </Stack>
  );
}
