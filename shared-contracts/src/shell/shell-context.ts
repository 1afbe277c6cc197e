import type { AxiosInstance } from 'axios';
import type { AuthUser } from '../auth/auth.schema.js';
import type { EventBus } from '../bus/event-bus.js';
import type { EventMap } from '../bus/event-map.js';

export type ConnectionState = 'disconnected' | 'connected' | 'reconnecting';

/** Live socket state as the shell owns it; later issues add send/subscribe/pause. */
export interface ShellLive {
  state: ConnectionState;
}

/** Who is on the current sheet and online anywhere; filled by the Live issue. */
export interface ShellPresence {
  onSheet: { userId: string; joinedAt: string }[];
  online: string[];
}

/** The sheet the route points at. */
export interface ShellSheet {
  id: string | null;
  open(id: string | null): void;
}

export type FeatureFlag =
  | 'contextWindow'
  | 'enhancedChat'
  | 'debugLogging'
  | 'enhancedTableParsing'
  | 'autoSheetCreation';

export type ShellTab = 'data' | 'git';

/** The signed-in user with the profile fields the server holds (spec 01 §2 user menu). */
export interface ShellUser extends AuthUser {
  nickname?: string | null;
  email?: string | null;
}

/**
 * What every remote receives from the shell, as a prop. Remotes never read
 * tokens, storage or globals themselves.
 */
export interface ShellContext {
  /** The api (`/api/v1` and the sheet routes), authenticated. */
  api: AxiosInstance;
  /** The ai-middleware (`/ai`), authenticated. */
  ai: AxiosInstance;
  user: ShellUser;
  logout(): Promise<void>;
  bus: EventBus<EventMap>;
  live: ShellLive;
  presence: ShellPresence;
  sheet: ShellSheet;
  flags: Record<FeatureFlag, boolean>;
  navigate(to: string): void;
  tab: ShellTab;
}

/** Props of every exposed remote component. */
export interface RemoteProps {
  shell: ShellContext;
}

export const DEFAULT_FLAGS: Record<FeatureFlag, boolean> = {
  contextWindow: true,
  enhancedChat: true,
  debugLogging: true,
  enhancedTableParsing: true,
  autoSheetCreation: true,
};
