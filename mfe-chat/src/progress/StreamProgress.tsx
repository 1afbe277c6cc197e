import { Box, Button, HStack, Progress, Text } from '@chakra-ui/react';
import { type HybridStreamStage, jobQueuedText } from '@tessera/contracts';
import type { StreamOutcome, StreamStatus } from '../messages/chat.store.js';

const STAGE_LABELS: Record<HybridStreamStage, string> = {
  queued: 'Waiting in queue',
  analysis: 'Analysis',
  code_generation: 'Code generation',
  frontend_panels: 'Frontend panels',
  handsontable_updates: 'Sheet updates',
  final_response: 'Final response',
};

export interface StreamProgressProps {
  status: StreamStatus;
  stage: HybridStreamStage | null;
  progress: number;
  /** With the `queued` stage: the job's place in the server's queue. */
  queuePosition?: number | null;
  outcome: StreamOutcome | null;
  onStop(): void;
}

/** The progress bar (spec 02 §2, §4): the stage and its progress while streaming, with Stop; the outcome once done. */
export function StreamProgress({ status, stage, progress, queuePosition, outcome, onStop }: StreamProgressProps) {
  if (status !== 'streaming' && !(status === 'completed' && stage)) return null;
  const label =
    status === 'streaming'
      ? stage === 'queued'
        ? queuePosition
          ? jobQueuedText(queuePosition)
          : STAGE_LABELS.queued
        : stage
        ? `${STAGE_LABELS[stage]} ${progress}%`
        : 'Sending...'
      : `${STAGE_LABELS.final_response}: ${outcome ?? 'complete'}`;
  return (
    <Box px="3" py="2" borderTopWidth="1px" role="status" aria-label="Progress">
      <HStack justify="space-between" mb="1">
        <Text fontSize="xs">{label}</Text>
        {status === 'streaming' && (
          <Button size="2xs" variant="outline" onClick={onStop}>
            Stop
          </Button>
        )}
      </HStack>
      <Progress.Root value={status === 'streaming' && !stage ? null : progress} size="xs" aria-label="Progress">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Box>
  );
}
