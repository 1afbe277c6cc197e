import { Box } from '@chakra-ui/react';

/** Green when online, grey when not (spec 01 §2); the state is in the label for screen readers. */
export function OnlineDot({ online }: { online: boolean }) {
  return (
    <Box
      as="span"
      display="inline-block"
      w="2"
      h="2"
      borderRadius="full"
      flexShrink={0}
      bg={online ? 'green.500' : 'gray.400'}
      role="img"
      aria-label={online ? 'Online' : 'Offline'}
      data-online={online}
    />
  );
}
