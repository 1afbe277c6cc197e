import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { AuthUser, ShellContext, ShellLive, ShellPresence } from '@tessera/contracts';
import { logout } from '../auth/auth.api.js';
import { useAuth } from '../auth/use-auth.js';
import type { LiveSession } from '../live/live-session.js';
import { useServices } from '../services/services.context.js';
import { shellRemotes } from './area/remote-mounts.store.js';
import { createCurrentSheetStore, currentSheet } from './current-sheet/current-sheet.store.js';
import { useFeatureFlags } from './feature-flags/use-feature-flags.js';
import { sheetIdFromPath, sheetPath, tabFromSearch } from './route-state.js';

const NOBODY: ShellPresence['onSheet'] = [];

/** The ShellContext every remote receives as its `shell` prop; `liveSession` (useLiveSession) backs live and presence. */
export function useShellContext(user: AuthUser, liveSession: LiveSession): ShellContext {
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
  // Not `pending` (nor the toasts): it changes twice an edit, and no remote renders from it — a new
  // context for it re-rendered every remote's tree twice per edit. ShellContext.live reads it when asked.
  const liveState = useStore(
    liveSession.store,
    useShallow(({ sheetId, state, onSheet, online }) => ({ sheetId, state, onSheet, online })),
  );
  // The ai-middleware's FEATURE_* flags (GET /ai/config), the defaults until it answers or when it fails.
  const flags = useFeatureFlags(services.ai, user.id);

  // The route's sheet is the open socket; the Workspace's version is its `since`, the selection goes to the others.
  const held = sheetState.report;
  useEffect(() => {
    if (held) liveSession.holdVersion(held.id, held.version, held.windowed ? 'windowed' : 'whole');
  }, [liveSession, held]);
  useEffect(() => liveSession.openSheet(sheetId), [liveSession, sheetId]);
  const selected = sheetState.selection;
  useEffect(() => {
    if (selected) liveSession.select(selected.sheetId, { row: selected.row, col: selected.col });
  }, [liveSession, selected]);

  // Until the effect above switched the socket, what the store holds is the previous sheet's.
  const liveIsThisSheet = liveState.sheetId === sheetId;
  const connection = liveIsThisSheet ? liveState.state : 'disconnected';
  // The functions stay the same while the sheet does; the state changes around them.
  const channel = useMemo(() => liveSession.channel(sheetId), [liveSession, sheetId]);
  const live = useMemo(() => withPendingCount({ ...channel, state: connection }, liveSession, sheetId), [channel, connection, liveSession, sheetId]);
  const onSheet = liveIsThisSheet ? liveState.onSheet : NOBODY;
  const presence = useMemo<ShellPresence>(() => ({ onSheet, online: liveState.online }), [onSheet, liveState.online]);

  // Account settings (mfe-members) announce a saved profile: the user menu follows at once.
  useEffect(
    () =>
      services.bus.on('profile-updated', (p) => {
        if (p.userId === user.id) services.auth.setState({ profile: { nickname: p.nickname, email: p.email } });
      }),
    [services, user.id],
  );

  // One object while neither changes: a remote that compares it (or memoizes on it) sees no change.
  const shellUser = useMemo(() => ({ ...user, ...profile }), [user, profile]);

  return useMemo<ShellContext>(
    () => ({
      api: services.api,
      ai: services.ai,
      user: shellUser,
      logout: () => logout(services),
      bus: services.bus,
      live,
      presence,
      sheet: currentSheet(sheetStore, sheetState, sheetId, (id) => navigate(sheetPath(id, tab))),
      remotes: shellRemotes,
      flags,
      navigate: (to) => navigate(to),
      tab,
    }),
    [services, shellUser, sheetId, tab, navigate, sheetStore, sheetState, live, presence, flags],
  );
}

/** `live` with `pending` read from the session when asked: the open sheet's count, 0 before its socket is the open one. */
function withPendingCount(live: Omit<ShellLive, 'pending'>, liveSession: LiveSession, sheetId: string | null): ShellLive {
  return Object.defineProperty(live, 'pending', {
    enumerable: true,
    get: () => {
      const now = liveSession.store.getState();
      return now.sheetId === sheetId ? now.pending : 0;
    },
  }) as ShellLive;
}
