/**
 * Who is present in a scope (a sheet: `sheet:<id>`; the workspace: `workspace`), across every
 * api process. The caller tells it each socket that opens (`enter`) and closes (`exit`); the
 * store counts them per user, so a user with several tabs — in one process or in several —
 * counts once: `enter` says whether the user just arrived anywhere, `exit` whether they just
 * left everywhere. Publishing `user_joined` / `user_left` is the caller's job (on the live bus).
 *
 * Processes that die: each process's entries carry an expiry that `renew` (called on every
 * heartbeat) pushes forward; a process that stops renewing (killed, frozen) has its entries
 * removed by the next `renew` of any other process, which returns those users as `left`.
 */
export interface PresenceMember {
  userId: string;
  displayName: string;
  /** When the user's first socket in the scope opened (ISO). */
  joinedAt: string;
  /** What the feature stored with `setData` (e.g. the user's selected cell), if anything. */
  data?: unknown;
}

export interface PresenceEvent {
  scope: string;
  userId: string;
  displayName: string;
}

export interface PresenceRenewal {
  /** Users whose every entry belonged to processes that stopped renewing: they left. */
  left: PresenceEvent[];
  /** Users of this process that another process had removed as expired (this process was frozen longer than the TTL): they are back. */
  rejoined: PresenceEvent[];
}

export interface PresenceStore {
  /** One more socket of `userId` in `scope` in this process. `first`: the user was nowhere in the scope before. */
  enter(scope: string, userId: string, displayName: string): Promise<{ first: boolean }>;
  /** One socket fewer. `last`: the user has no socket left in the scope in any process. */
  exit(scope: string, userId: string): Promise<{ last: boolean }>;
  /** Everyone present in the scope, one entry per user, oldest arrival first. */
  list(scope: string): Promise<PresenceMember[]>;
  /** Keeps a small JSON value with the user's entry until they leave (listed by `list`). */
  setData(scope: string, userId: string, data: unknown): Promise<void>;
  /**
   * Every heartbeat: extends this process's entries in the scopes starting with `scopePrefix`
   * (each feature renews its own: `sheet:`, `workspace`) and removes the expired ones of other
   * processes there.
   */
  renew(scopePrefix: string): Promise<PresenceRenewal>;
  /** Scopes where this process has sockets (for tests and metrics). */
  localScopes(): string[];
  /** Removes this process's entries (clean shutdown), so that the others see the users leave at their next renew. */
  close(): Promise<void>;
}
