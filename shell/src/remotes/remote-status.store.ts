import { createStore } from 'zustand';
import type { RemoteName } from '@tessera/contracts';

/** Which release of a remote this page runs: the canary, the live one, or the previous one after a failure. */
export type ReleaseKind = 'canary' | 'live' | 'previous';

export type RemoteStatus =
  | { status: 'running'; release: ReleaseKind; version: string }
  | { status: 'failed'; message: string };

/** What the About view shows per remote: only remotes this page has loaded (or tried to) are listed. */
export type RemoteStatusState = Partial<Record<RemoteName, RemoteStatus>>;

export const remoteStatusStore = createStore<RemoteStatusState>(() => ({}));

export const recordRemoteStatus = (remote: RemoteName, status: RemoteStatus) => remoteStatusStore.setState({ [remote]: status });
