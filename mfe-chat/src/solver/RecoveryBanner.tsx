import { Box, Button, HStack, Heading, List, Text } from '@chakra-ui/react';
import { RECOVERY_TEXTS, type RemoteProps } from '@tessera/contracts';
import { useStore } from 'zustand';
import { nextRelaxationLevel, resetSession, retryWithSimplerRequirements, rollback } from './recovery.js';
import { solverStore } from './solver.store.js';

/**
 * ./RecoveryBanner (mounted by the shell at the top of the main area): when the solver
 * exceeded its retries, the Operation Failed panel (spec 02 §2) with the failure message, the
 * suggested actions and the three choices; nothing otherwise.
 */
export default function RecoveryBanner({ shell }: RemoteProps) {
  const { failure, busy, chatReplying } = useStore(solverStore);
  if (!failure) return null;
  const retryLevel = nextRelaxationLevel();
  return (
    <Box
      as="section"
      role="alert"
      aria-label={RECOVERY_TEXTS.title}
      m="2"
      p="3"
      borderWidth="1px"
      borderColor="border.error"
      borderRadius="md"
      bg="bg.error"
      flexShrink={0}
    >
      <Heading as="h2" size="sm" color="fg.error">
        {RECOVERY_TEXTS.title}
      </Heading>
      <Text fontSize="sm" mt="1">
        {failure.message}
      </Text>
      {failure.suggestedActions.length > 0 && (
        <Box mt="2">
          <Text fontSize="sm" fontWeight="semibold" id="recovery-suggested-actions">
            {RECOVERY_TEXTS.suggestedActions}
          </Text>
          <List.Root fontSize="sm" ps="5" aria-labelledby="recovery-suggested-actions">
            {failure.suggestedActions.map((action, i) => (
              <List.Item key={i}>{action}</List.Item>
            ))}
          </List.Root>
        </Box>
      )}
      {failure.rollback?.description && (
        <Text fontSize="xs" color="fg.muted" mt="2">
          {failure.rollback.description}
        </Text>
      )}
      <HStack mt="3" gap="2" wrap="wrap">
        <Button size="xs" variant="outline" disabled={busy} onClick={() => void rollback(shell)}>
          {RECOVERY_TEXTS.rollback}
        </Button>
        <Button
          size="xs"
          colorPalette="orange"
          disabled={busy || chatReplying || retryLevel === null}
          title={
            retryLevel === null
              ? 'The requirements cannot be simplified further'
              : chatReplying
                ? 'Waiting for the chat to finish its reply'
                : `Solve again at relaxation level ${retryLevel}`
          }
          onClick={() => void retryWithSimplerRequirements(shell)}
        >
          {RECOVERY_TEXTS.retry}
        </Button>
        <Button size="xs" variant="ghost" disabled={busy} onClick={() => void resetSession(shell)}>
          {RECOVERY_TEXTS.reset}
        </Button>
      </HStack>
    </Box>
  );
}
