import { createContext, memo, useContext, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type ComponentType, type RefObject } from 'react';
import type { RemoteProps, ShellContext } from '@tessera/contracts';

/**
 * A remote's exposed component that renders again only when what it shows from the shell changes.
 * The shell hands its remotes a new ShellContext whenever anything in it changes — the selection
 * moving, each version acknowledged — and every remote's whole tree rendered again (the navigator's
 * few hundred rows, twice per edit). The wrapped component gets one shell object for its life whose
 * fields are those of the newest context when read (in a handler or an effect it never sees an old
 * version or selection), and renders when the values `shows(shell)` returns change (compared one by
 * one) or when its other props do. `shows` lists everything the component's tree renders from the
 * shell: a field it leaves out is read fresh by handlers but not shown again when it changes —
 * unless a small part of its tree shows it with useShellValue, which renders that part alone.
 */
export function steadyShell<P extends RemoteProps>(Component: ComponentType<P>, shows: (shell: ShellContext) => readonly unknown[]): ComponentType<P> {
  type InnerProps = P & { shown: readonly unknown[] };
  const Inner = memo(
    ({ shown: _shown, ...props }: InnerProps) => <Component {...(props as unknown as P)} />,
    (before, after) => sameProps(before, after),
  );
  function SteadyShell(props: P) {
    const latest = useRef(props.shell);
    // Set while rendering, not in an effect: the tree rendered below must read this context already.
    latest.current = props.shell;
    const shell = useMemo(() => newestShell(latest), []);
    const source = useMemo(() => shellSource(latest), []);
    // Before paint: a part that shows a field with useShellValue follows in the same frame.
    useLayoutEffect(() => source.changed(), [source, props.shell]);
    return (
      <ShellSource.Provider value={source}>
        <Inner {...props} shell={shell} shown={shows(props.shell)} />
      </ShellSource.Provider>
    );
  }
  SteadyShell.displayName = `SteadyShell(${Component.displayName ?? Component.name ?? 'Remote'})`;
  return SteadyShell;
}

/**
 * A value of the newest shell context for a part of a steadyShell component's tree that shows what
 * the component's `shows` leaves out (the selected cell in a panel that should not render whole for
 * each selection move): the part renders again, alone, when `select`'s result changes (Object.is —
 * return a primitive or a value kept in the context, not a new object).
 */
export function useShellValue<T>(select: (shell: ShellContext) => T): T {
  const source = useContext(ShellSource);
  if (!source) throw new Error('useShellValue is used inside a component wrapped in steadyShell');
  return useSyncExternalStore(source.subscribe, () => select(source.read()));
}

interface ShellSourceValue {
  read(): ShellContext;
  subscribe(listener: () => void): () => void;
  changed(): void;
}

const ShellSource = createContext<ShellSourceValue | null>(null);

function shellSource(latest: RefObject<ShellContext>): ShellSourceValue {
  const listeners = new Set<() => void>();
  return {
    read: () => latest.current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed: () => listeners.forEach((listener) => listener()),
  };
}

function sameProps(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const keys = Object.keys(after);
  if (keys.length !== Object.keys(before).length) return false;
  return keys.every((key) => (key === 'shown' ? sameValues(before.shown as unknown[], after.shown as unknown[]) : Object.is(before[key], after[key])));
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/** A ShellContext whose every field is read from `latest` when asked. */
function newestShell(latest: RefObject<ShellContext>): ShellContext {
  return new Proxy({} as ShellContext, {
    get: (_target, key) => Reflect.get(latest.current, key),
    has: (_target, key) => Reflect.has(latest.current, key),
    ownKeys: () => Reflect.ownKeys(latest.current),
    getOwnPropertyDescriptor: (_target, key) => {
      const field = Reflect.getOwnPropertyDescriptor(latest.current, key);
      return field && { ...field, configurable: true };
    },
  });
}
