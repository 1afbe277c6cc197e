import { HStack, Box, Text } from '@chakra-ui/react';
import type { ConnectionState } from '@tessera/contracts';

/** The header's connection dot: green and 'Connected' only while the live socket is open. */
export function ConnectionDot({ state }: { state: ConnectionState }) {
  const connected = state === 'connected';
  const label = connected ? 'Connected' : 'Disconnected';
  return (
    <HStack gap="1.5" data-testid="connection-status" data-state={state} title={`Live connection: ${state}`}>
      <Box w="2" h="2" borderRadius="full" bg={connected ? 'green.500' : 'gray.400'} aria-hidden="true" />
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
    </HStack>
  );
}
