import { CHART_MAX_OFFSET, SHEET_MAX_COLUMNS, type ChartBox, type ChartDefinition, type ChartOptions, type ChartRange, type SheetSize, type ShellContext, type UpdateChartBody } from '@tessera/contracts';
import { useMemo, useRef, useState } from 'react';
import { type ChartResult, createChartService } from './chart.service.js';

export interface SheetChartsHost {
  sheetId: string | null;
  size: SheetSize;
  charts: ChartDefinition[];
  setCharts(charts: ChartDefinition[]): void;
  /** Resolves once the own row/column ops on their way are acknowledged (the charts shown are then those of `version()`). */
  flush(): Promise<void>;
  /** The sheet version the grid and charts shown are at. */
  version(): number;
  /** Own edits are on their way (the grid shows them before the server has them). */
  pending(): boolean;
}

/**
 * Where a new chart's box goes: beside its range (anchored to the cell right of its last column,
 * level with its first row), so it does not hide the cells it charts; each further chart a little
 * lower and right. Anchored, it moves with those cells.
 */
export function newChartBox(count: number, range: ChartRange | null): ChartBox {
  const step = 24 * (count % 10);
  return {
    row: range?.start_row ?? 0,
    col: Math.min((range?.end_col ?? -1) + 1, SHEET_MAX_COLUMNS - 1),
    dx: Math.min(24 + step, CHART_MAX_OFFSET),
    dy: Math.min(step, CHART_MAX_OFFSET),
    width: 480,
    height: 300,
  };
}

/**
 * A selection in the grid as a chart range, in the stored sheet: a whole column or row (a header
 * click, -1) is cut to the sheet's stored rows and columns; null when nothing stored is selected.
 */
export function selectionRange(row: number, col: number, row2: number, col2: number, size: SheetSize): ChartRange | null {
  const top = Math.max(0, Math.min(row, row2));
  const left = Math.max(0, Math.min(col, col2));
  const bottom = Math.min(Math.max(row, row2), size.rows - 1);
  const right = Math.min(Math.max(col, col2), size.cols - 1);
  if (bottom < top || right < left) return null;
  return { start_row: top, start_col: left, end_row: bottom, end_col: right };
}

const optionsOf = ({ id: _id, ...options }: ChartDefinition): UpdateChartBody => options;

/** What the dialog opens on for a chart whose cells were deleted (its range field starts empty). */
const NO_RANGE: ChartRange = { start_row: 0, start_col: 0, end_row: 0, end_col: 0 };

/** The Workspace's chart commands (issue 20): insert from the selection, move / resize, delete; every change through the server. */
export function useSheetCharts(api: ShellContext['api'], host: SheetChartsHost) {
  const service = useMemo(() => createChartService(api), [api]);
  const hostRef = useRef(host);
  hostRef.current = host;
  // The selection's range is read when the dialog opens; only whether there is one is shown (Insert
  // chart enabled), so moving the selection does not render the Workspace again at each move.
  const selection = useRef<ChartRange | null>(null);
  const [hasSelection, setHasSelection] = useState(false);
  const [dialogRange, setDialogRange] = useState<ChartRange | null>(null);
  // The chart the dialog changes; null while it inserts a new one.
  const [editing, setEditing] = useState<ChartDefinition | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  // The version the dialog's range was taken on (null: own edits were on their way, so the one after them).
  const dialogBase = useRef<number | null>(null);
  const drawnOn = () => (hostRef.current.pending() ? null : hostRef.current.version());
  const [error, setError] = useState<string | null>(null);

  /**
   * A chart write, on the version shown: own row/column ops are flushed first, so the range sent
   * is the one of `base_version` (the server moves it through others' ops since). The answer's
   * charts are shown unless the socket has already brought that version or a later one.
   */
  const write = async (request: (sheetId: string, base: number) => Promise<ChartResult>, drawnOn: number | null = null): Promise<ChartResult | null> => {
    const sheetId = hostRef.current.sheetId;
    if (!sheetId) return null;
    await hostRef.current.flush();
    const result = await request(sheetId, drawnOn ?? hostRef.current.version());
    if (result.success && result.data.version > hostRef.current.version()) hostRef.current.setCharts(result.data.charts);
    return result;
  };

  const apply = (result: ChartResult | null, undo?: () => void): boolean => {
    if (!result || result.success) return !!result;
    undo?.();
    setError(result.error);
    return false;
  };

  return {
    hasSelection,
    dialogRange,
    editing,
    busy,
    dialogError,
    error,
    dismissError: () => setError(null),
    onSelectRange(row: number, col: number, row2: number, col2: number) {
      selection.current = selectionRange(row, col, row2, col2, hostRef.current.size);
      setHasSelection(selection.current !== null);
    },
    openDialog() {
      setDialogError(null);
      setEditing(null);
      dialogBase.current = drawnOn();
      setDialogRange(selection.current);
    },
    /** The same dialog, for a chart already on the sheet. */
    openEdit(chart: ChartDefinition) {
      setDialogError(null);
      setEditing(chart);
      dialogBase.current = drawnOn();
      setDialogRange(chart.range ?? NO_RANGE);
    },
    closeDialog() {
      setDialogRange(null);
      setEditing(null);
    },
    newBox: () => newChartBox(hostRef.current.charts.length, dialogRange),
    /** The dialog's Insert (a new chart) or Save (the chart being edited: its box stays where it is now). */
    async submit(options: ChartOptions) {
      if (!hostRef.current.sheetId) return;
      setBusy(true);
      const result = await write((sheetId, base) => {
        if (!editing) return service.create(sheetId, { ...options, base_version: base });
        // The box stays where it is now; the range is the dialog's, on the version shown.
        const current = hostRef.current.charts.find((c) => c.id === editing.id);
        return service.update(sheetId, editing.id, { ...options, box: current?.box ?? options.box, base_version: base });
      }, dialogBase.current);
      setBusy(false);
      if (!result) return;
      if (result.success) {
        setDialogRange(null);
        setEditing(null);
      } else setDialogError(result.error);
    },
    async move(chart: ChartDefinition, box: ChartBox) {
      if (!hostRef.current.sheetId) return;
      const shown = (next: ChartBox) => hostRef.current.setCharts(hostRef.current.charts.map((c) => (c.id === chart.id ? { ...c, box: next } : c)));
      // Shown where it was dropped at once; put back if the server refuses. The range sent is the
      // chart's as shown when it is sent (after own ops are flushed), on that version.
      shown(box);
      apply(
        await write((sheetId, base) => {
          const now = hostRef.current.charts.find((c) => c.id === chart.id) ?? chart;
          return service.update(sheetId, chart.id, { ...optionsOf(now), box, base_version: base });
        }),
        () => shown(chart.box),
      );
    },
    async remove(chart: ChartDefinition) {
      apply(await write((sheetId) => service.remove(sheetId, chart.id)));
    },
  };
}
