import { createLiveClient, type LiveClient, type LiveClientOptions } from './live-client.js';
import {
  LiveServerFrameSchema,
  WorkspaceServerFrameSchema,
  type LiveClientFrame,
  type LiveGrid,
  type LiveServerFrame,
  type WorkspaceServerFrame,
} from './live.schema.js';

/** The two sockets of the workspace (DESIGN.md § Live collaboration), on the client from live-client.ts. */

export type SheetLiveClient = LiveClient<LiveServerFrame, LiveClientFrame>;
/** The workspace socket only receives. */
export type WorkspaceLiveClient = LiveClient<WorkspaceServerFrame, never>;

type CommonOptions = Omit<LiveClientOptions<never>, 'schema' | 'settles' | 'versionOf' | 'query'>;

export interface SheetLiveClientOptions extends CommonOptions {
  /**
   * How the page holds the sheet now (LIVE_GRIDS), read at each connect as `?grid=`; undefined
   * before the page has loaded it (the server then takes it as whole until a `grid` frame).
   */
  grid?(): LiveGrid | undefined;
}

/** The socket address of `path` on the origin of `base` (an http(s) page or service URL): ws for http, wss for https. */
export function liveSocketUrl(base: string, path: string): string {
  const url = new URL(path, base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** The path of a sheet's socket. */
export const sheetSocketPath = (sheetId: string) => `/sheets/${encodeURIComponent(sheetId)}`;
/** The path of the workspace socket. */
export const WORKSPACE_SOCKET_PATH = '/live';

/**
 * A sheet's socket `/sheets/{id}`: an operation is settled by its ack, by an error naming it
 * (the server refused it: sending it again would be refused again), or by its own operation
 * frame replayed on reconnect (the ack was lost with the old socket). Versions come from
 * operation, ack and sync frames.
 */
export function createSheetLiveClient({ grid, ...options }: SheetLiveClientOptions): SheetLiveClient {
  return createLiveClient<LiveServerFrame, LiveClientFrame>({
    ...options,
    query: () => ({ grid: grid?.() }),
    schema: LiveServerFrameSchema,
    settles(frame) {
      if (frame.type === 'ack') return [frame.data.operation_id];
      if (frame.type === 'operation') return [frame.data.operation.id];
      if (frame.type === 'error' && frame.data.operation_id) return [frame.data.operation_id];
      return [];
    },
    versionOf(frame) {
      if (frame.type === 'operation' || frame.type === 'ack' || frame.type === 'sync' || frame.type === 'chart') return frame.data.version;
      return undefined;
    },
  });
}

/** The workspace socket `/live`: who is online anywhere, and navigation changes. */
export function createWorkspaceLiveClient(options: Omit<CommonOptions, 'heldVersion'>): WorkspaceLiveClient {
  return createLiveClient<WorkspaceServerFrame, never>({ ...options, schema: WorkspaceServerFrameSchema });
}
