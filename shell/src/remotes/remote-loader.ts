import type { ComponentType } from 'react';
import type { RemoteName, RemoteProps } from '@tessera/contracts';

/** Component of an exposed remote module: it takes the ShellContext as `shell`. */
export type RemoteComponent = ComponentType<RemoteProps>;

/**
 * How the remote places get their components. The real one goes through the
 * Module Federation runtime (federation-loader.ts); tests inject their own.
 */
/** Who the module is loaded for: a canary is chosen per user. */
export interface LoadContext {
  userId?: string;
}

export interface RemoteLoader {
  /** Loads an exposed module ('./ChatPanel') of a remote and returns its component. */
  load(remote: RemoteName, expose: string, context?: LoadContext): Promise<RemoteComponent>;
  /** Prepares a fresh attempt after a failure (refetch, not a cached failure). */
  retry(remote: RemoteName): Promise<void>;
}

/** The component an exposed module provides: its default export, else the export named like the module. */
export function componentOf(module: unknown, expose: string): RemoteComponent {
  const name = expose.replace(/^\.\//, '');
  const exports = (module ?? {}) as Record<string, unknown>;
  const component = exports.default ?? exports[name];
  const isComponent =
    typeof component === 'function' || (typeof component === 'object' && component !== null && '$$typeof' in component);
  if (!isComponent) throw new Error(`${expose} does not export a component`);
  return component as RemoteComponent;
}
