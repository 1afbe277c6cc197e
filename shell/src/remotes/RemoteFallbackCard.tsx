import { useState } from 'react';
import { Button, Card } from '@chakra-ui/react';
import type { RemoteName } from '@tessera/contracts';
import { REMOTE_LABELS } from './remote-labels.js';

export interface RemoteFallbackCardProps {
  remote: RemoteName;
  onRetry(): Promise<void>;
}

/** Shown in a remote's place when it failed to load or crashed; the rest of the page keeps working. */
export function RemoteFallbackCard({ remote, onRetry }: RemoteFallbackCardProps) {
  const [retrying, setRetrying] = useState(false);
  const label = REMOTE_LABELS[remote];
  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Card.Root data-testid={`remote-fallback-${remote}`} role="alert" variant="outline" size="sm" m="2">
      <Card.Body gap="1">
        <Card.Title fontSize="sm">{label} is unavailable</Card.Title>
        <Card.Description fontSize="sm">It could not be loaded. Everything else keeps working.</Card.Description>
      </Card.Body>
      <Card.Footer>
        <Button size="xs" variant="outline" onClick={retry} loading={retrying} loadingText="Retrying...">
          Retry
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
