import { useSyncExternalStore } from 'react';

/** How long a failure's message stays (the user may have looked away while every row was read). */
const ERROR_SHOWN_MS = 10_000;

interface Shown {
  text: string;
  busy: boolean;
}

/**
 * What the windowed grid is doing on every row of the sheet (Copy, Cut, Delete of whole columns, a
 * column remove read for its undo: seconds on a million rows), or why it did nothing. Kept outside
 * React's state: the grid re-rendered would load its rows again; only the line below redraws.
 */
export class GridStatus {
  private shown: Shown | null = null;
  private readonly listeners = new Set<() => void>();
  private busy = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `work` under way, said by `text`; its failure's message shown after it (a rejection's Error message). */
  track<T>(text: string, work: Promise<T>): Promise<T | undefined> {
    this.busy++;
    this.show({ text, busy: true });
    return work.then(
      (value) => {
        if (--this.busy === 0 && this.shown?.busy) this.show(null);
        return value;
      },
      (error: unknown) => {
        this.busy--;
        this.show({ text: error instanceof Error ? error.message : String(error), busy: false });
        this.timer = setTimeout(() => this.show(null), ERROR_SHOWN_MS);
        return undefined;
      },
    );
  }

  stop(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly get = () => this.shown;

  private show(shown: Shown | null): void {
    clearTimeout(this.timer);
    this.shown = shown;
    for (const listener of this.listeners) listener();
  }
}

/** The status over the grid's bottom left corner, when there is one. */
export function GridStatusLine({ status }: { status: GridStatus }) {
  const shown = useSyncExternalStore(status.subscribe, status.get);
  if (!shown) return null;
  return (
    <div
      role="status"
      data-testid="windowed-status"
      aria-busy={shown.busy}
      style={{
        position: 'absolute',
        left: 8,
        bottom: 8,
        zIndex: 200,
        padding: '4px 10px',
        borderRadius: 4,
        fontSize: 13,
        background: shown.busy ? 'rgba(30, 41, 59, 0.85)' : 'rgba(185, 28, 28, 0.92)',
        color: 'white',
        pointerEvents: 'none',
      }}
    >
      {shown.text}
    </div>
  );
}
