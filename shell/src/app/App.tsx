import { useEffect } from 'react';
import { ErrorBoundary } from '../errors/ErrorBoundary.js';
import { FallbackScreen } from '../errors/FallbackScreen.js';
import { startAuth } from '../auth/auth.store.js';
import { syncRoleWithServer } from '../auth/role-sync.js';
import { useAuth } from '../auth/use-auth.js';
import { ServicesProvider, useServices } from '../services/services.context.js';
import type { ShellServices } from '../services/shell-services.js';
import { AppRoutes } from './AppRoutes.js';
import { StartupScreen } from './StartupScreen.js';

// Start-up runs once per services object, even when React mounts twice (StrictMode).
const started = new WeakSet<ShellServices>();

function SessionGate() {
  const services = useServices();
  const { phase, user } = useAuth();

  useEffect(() => {
    if (started.has(services)) return;
    started.add(services);
    startAuth(services.session, services.auth).catch((error: unknown) => {
      console.error('[shell] session start failed', error);
      services.auth.setState({ phase: 'signedOut', user: null, profile: null });
    });
  }, [services]);

  // After sign-in the users list is fetched; a role changed on the server triggers a refresh (spec 01 §4).
  const userId = phase === 'signedIn' ? user?.id : undefined;
  useEffect(() => {
    if (!userId) return;
    syncRoleWithServer(services.api, services.session)
      .then(({ me }) => {
        if (me) services.auth.setState({ profile: { nickname: me.nickname, email: me.email } });
      })
      .catch((error: unknown) => console.error('[shell] could not compare the role with the server', error));
  }, [services, userId]);

  return phase === 'starting' ? <StartupScreen /> : <AppRoutes />;
}

/** The whole app below the router: a render error anywhere shows the generic fallback screen. */
export function App({ services }: { services: ShellServices }) {
  return (
    <ServicesProvider services={services}>
      <ErrorBoundary fallback={(error, reset) => <FallbackScreen error={error} onTryAgain={reset} />}>
        <SessionGate />
      </ErrorBoundary>
    </ServicesProvider>
  );
}
