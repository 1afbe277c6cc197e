import type { EventMap } from './event-map.js';

export type Listener<P> = (payload: P) => void;

export interface EventBus<M extends object = EventMap> {
  emit<K extends keyof M>(event: K, payload: M[K]): void;
  /** Subscribes; the returned function unsubscribes. */
  on<K extends keyof M>(event: K, listener: Listener<M[K]>): () => void;
}

/**
 * The in-page bus. One instance lives in the shell and reaches every remote
 * through ShellContext; a listener that throws is reported and does not stop
 * the others.
 */
export function createEventBus<M extends object = EventMap>(
  onListenerError: (event: keyof M, error: unknown) => void = (event, error) =>
    console.error(`[bus] listener of ${String(event)} failed`, error),
): EventBus<M> {
  const listeners = new Map<keyof M, Set<Listener<never>>>();
  return {
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as Listener<typeof payload>)(payload);
        } catch (error) {
          onListenerError(event, error);
        }
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener<never>);
      return () => {
        set.delete(listener as Listener<never>);
      };
    },
  };
}
