import { HStack, Progress, Spinner, Text } from '@chakra-ui/react';
import { Notice } from '@tessera/ui-kit';
import type { ImportProgress } from './use-import-file.js';

export interface ImportStatusProps {
  progress: ImportProgress;
  error: string | null;
  onDismissError(): void;
}

const count = new Intl.NumberFormat('en-US');

/**
 * Under the buttons: the upload's progress, then 'Processing...' until the server tells the rows
 * it stored so far ('Storing rows: 120,000 of 500,000'), until it replies; or the failure's alert.
 */
export function ImportStatus({ progress, error, onDismissError }: ImportStatusProps) {
  return (
    <>
      {progress.phase === 'uploading' && (
        <Progress.Root size="xs" value={progress.percent} mb="2" aria-label="Import upload">
          <HStack justify="space-between">
            <Progress.Label fontSize="xs">Uploading...</Progress.Label>
            <Progress.ValueText fontSize="xs" />
          </HStack>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      {progress.phase === 'storing' && (
        <Progress.Root size="xs" value={progress.total > 0 ? Math.round((progress.stored / progress.total) * 100) : 0} mb="2" aria-label="Import storing">
          <HStack justify="space-between">
            <Progress.Label fontSize="xs">{`Storing rows: ${count.format(progress.stored)} of ${count.format(progress.total)}`}</Progress.Label>
            <Progress.ValueText fontSize="xs" />
          </HStack>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      {progress.phase === 'processing' && (
        <HStack role="status" gap="2" mb="2">
          <Spinner size="xs" />
          <Text fontSize="xs">Processing...</Text>
        </HStack>
      )}
      {error && (
<Notice status="error" detail={error} onClose={onDismissError} closeSize="2xs" mb="2" />
      )}
    </>
  );
}
