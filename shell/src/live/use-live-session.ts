import { useEffect, useMemo } from 'react';
import { useServices } from '../services/services.context.js';
import { createLiveSession, type LiveSession } from './live-session.js';

/**
 * The live session of the signed-in user for as long as the main screen is shown: the
 * workspace socket opens on mount and every socket closes on unmount (sign-out included).
 */
export function useLiveSession(userId: string): LiveSession {
  const services = useServices();
  const live = useMemo(
    () =>
      createLiveSession({
      // The sockets are on the services' origin ('' = this page's), ws or wss like the page.
        baseUrl: new URL(services.baseUrl || '/', window.location.href).toString(),
        session: services.session,
        bus: services.bus,
        userId,
      }),
    [services, userId],
  );
  // start/stop rather than create/close: React may mount twice (StrictMode) with one state.
  useEffect(() => {
    live.start();
    return () => live.stop();
  }, [live]);
  return live;
}
