import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_FLAGS, type AuthUser, type ShellContext, type ShellLive, type ShellPresence } from '@tessera/contracts';
import { logout } from '../auth/auth.api.js';
import { useAuth } from '../auth/use-auth.js';
import { useServices } from '../services/services.context.js';
import { shellRemotes } from './area/remote-mounts.store.js';
import { createCurrentSheetStore, currentSheet } from './current-sheet/current-sheet.store.js';
import { sheetIdFromPath, sheetPath, tabFromSearch } from './route-state.js';

// No live socket exists yet (a later issue): the state says so honestly.
const LIVE: ShellLive = { state: 'disconnected' };
const PRESENCE: ShellPresence = { onSheet: [], online: [] };

/** The ShellContext every remote receives as its `shell` prop. */
export function useShellContext(user: AuthUser): ShellContext {
  const services = useServices();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const sheetId = sheetIdFromPath(pathname);
  const tab = tabFromSearch(search);
  const { profile } = useAuth();
  // What the Workspace reports about the current sheet (name, size, version, getData) and the selection.
  const [sheetStore] = useState(createCurrentSheetStore);
  const sheetState = useStore(sheetStore);

  // Account settings (mfe-members) announce a saved profile: the user menu follows at once.
  useEffect(
    () =>
      services.bus.on('profile-updated', (p) => {
        if (p.userId === user.id) services.auth.setState({ profile: { nickname: p.nickname, email: p.email } });
      }),
    [services, user.id],
  );

  return useMemo<ShellContext>(
    () => ({
      api: services.api,
      ai: services.ai,
      user: { ...user, ...profile },
      logout: () => logout(services),
      bus: services.bus,
      live: LIVE,
      presence: PRESENCE,
      sheet: currentSheet(sheetStore, sheetState, sheetId, (id) => navigate(sheetPath(id, tab))),
      remotes: shellRemotes,
      flags: DEFAULT_FLAGS,
      navigate: (to) => navigate(to),
      tab,
    }),
    [services, user, profile, sheetId, tab, navigate, sheetStore, sheetState],
  );
}
