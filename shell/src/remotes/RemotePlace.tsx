import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Box, Spinner, type BoxProps } from '@chakra-ui/react';
import type { ExposedModule, RemoteName } from '@tessera/contracts';
import { useCurrentShell } from '../main/current-shell.context.js';
import { ErrorBoundary } from '../errors/ErrorBoundary.js';
import { RemoteFallbackCard } from './RemoteFallbackCard.js';
import { useRemoteGeneration, useRemoteLoader } from './remote-loader.context.js';

export interface RemotePlaceProps<R extends RemoteName> extends Omit<BoxProps, 'children'> {
  remote: R;
  expose: ExposedModule<R>;
  /** Decorations (header parts) render nothing when they fail, instead of a card. */
  quiet?: boolean;
}

/** A stable id for the e2e: remote-mfe-chat-ChatPanel. */
export const remotePlaceTestId = (remote: RemoteName, expose: string) => `remote-${remote}-${expose.replace(/^\.\//, '')}`;

/**
 * Where one exposed remote module is mounted, with the page's ShellContext (CurrentShell). Its
 * code is fetched only when the place renders (lazy); a failure to load or a crash stays inside
 * the place, as a card with Retry.
 */
export function RemotePlace<R extends RemoteName>({ remote, expose, quiet = false, ...box }: RemotePlaceProps<R>) {
  const shell = useCurrentShell();
  const { loader, retry } = useRemoteLoader();
  // Whose canary applies (read at the first load of the remote on this page).
  const userId = shell.user.id;
  const generation = useRemoteGeneration(remote);
  // The attempt this place renders; it follows the remote's generation only after a failure,
  // so a Retry elsewhere never remounts a place that works.
  const [attempt, setAttempt] = useState(generation);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (failed && generation !== attempt) {
      setFailed(false);
      setAttempt(generation);
    }
  }, [failed, generation, attempt]);

  const Remote = useMemo(
    () => lazy(async () => ({ default: await loader.load(remote, expose, { userId }) })),
    // A new attempt needs a new lazy component: React caches the outcome of the old one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [loader, remote, expose, attempt],
  );

  return (
    <Box data-testid={remotePlaceTestId(remote, expose)} minW="0" {...box}>
      <ErrorBoundary
        resetKey={attempt}
        onError={(error) => {
          // A missing decoration is worth a warning; a missing main place is an error.
          (quiet ? console.warn : console.error)(`[shell] ${remote} ${expose} failed`, error);
          setFailed(true);
        }}
        fallback={() => (quiet ? null : <RemoteFallbackCard remote={remote} onRetry={() => retry(remote)} />)}
      >
        <Suspense
          fallback={
            quiet ? null : (
              <Box p="4" display="flex" justifyContent="center">
                <Spinner size="sm" aria-label="Loading" />
              </Box>
            )
          }
        >
          <Remote shell={shell} />
        </Suspense>
      </ErrorBoundary>
    </Box>
  );
}
