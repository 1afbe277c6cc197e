import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../auth/use-auth.js';
import { returnPath, type ReturnState } from '../auth/return-path.js';
import { StartupScreen } from './StartupScreen.js';

// The main screen (Chakra, layout, remote loading) is its own chunk: the sign-in page never downloads it.
const MainRoute = lazy(() => import(/* webpackChunkName: "main-screen" */ '../main/MainRoute.js'));

/** Signed-out users go to sign-in; the path they wanted is kept to return to. */
export function RequireAuth() {
  const { phase } = useAuth();
  const location = useLocation();
  if (phase !== 'signedIn') {
    const state: ReturnState = { from: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return (
    <Suspense fallback={<StartupScreen />}>
      <MainRoute />
    </Suspense>
  );
}

/** The sign-in and sign-up screens are for signed-out users; a signed-in one goes where they meant to. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { phase } = useAuth();
  const location = useLocation();
  return phase === 'signedIn' ? <Navigate to={returnPath(location)} replace /> : <>{children}</>;
}
