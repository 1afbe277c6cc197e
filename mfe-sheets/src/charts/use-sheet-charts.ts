import { CHART_MAX_OFFSET, type ChartBox, type ChartDefinition, type ChartOptions, type ChartRange, type ChartsResult, type SheetSize, type ShellContext } from '@tessera/contracts';
import { useMemo, useRef, useState } from 'react';
import { COLUMN_WIDTH } from '../workspace/grid/SheetGrid.js';
import { type ChartResult, createChartService } from './chart.service.js';

export interface SheetChartsHost {
  sheetId: string | null;
  size: SheetSize;
  charts: ChartDefinition[];
  setCharts(charts: ChartDefinition[]): void;
}

/** About the grid's row-number column and one row, in pixels (the box is placed near the range, not on it). */
const ROW_HEADER_WIDTH = 50;
const ROW_HEIGHT = 23;

/**
 * Where a new chart's box goes: beside its range (to the right of its last column, level with its
 * first row), so it does not hide the cells it charts; each further chart a little lower and right.
 */
export function newChartBox(count: number, range: ChartRange | null): ChartBox {
  const step = 24 * (count % 10);
  const x = ROW_HEADER_WIDTH + ((range?.end_col ?? 0) + 1) * COLUMN_WIDTH + 24 + step;
  const y = 30 + (range?.start_row ?? 0) * ROW_HEIGHT + step;
  return { x: Math.min(x, CHART_MAX_OFFSET), y: Math.min(y, CHART_MAX_OFFSET), width: 480, height: 300 };
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

const optionsOf = ({ id: _id, ...options }: ChartDefinition): ChartOptions => options;

/** The Workspace's chart commands (issue 20): insert from the selection, move / resize, delete; every change through the server. */
export function useSheetCharts(api: ShellContext['api'], host: SheetChartsHost) {
  const service = useMemo(() => createChartService(api), [api]);
  const hostRef = useRef(host);
  hostRef.current = host;
  const [selection, setSelection] = useState<ChartRange | null>(null);
  const [dialogRange, setDialogRange] = useState<ChartRange | null>(null);
  // The chart the dialog changes; null while it inserts a new one.
  const [editing, setEditing] = useState<ChartDefinition | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const apply = (result: ChartResult, undo?: ChartDefinition[]): result is { success: true; data: ChartsResult } => {
    if (result.success) {
      hostRef.current.setCharts(result.data.charts);
      return true;
    }
    if (undo) hostRef.current.setCharts(undo);
    setError(result.error);
    return false;
  };

  return {
    selection,
    dialogRange,
    editing,
    busy,
    dialogError,
    error,
    dismissError: () => setError(null),
    onSelectRange(row: number, col: number, row2: number, col2: number) {
      setSelection(selectionRange(row, col, row2, col2, hostRef.current.size));
    },
    openDialog() {
      setDialogError(null);
      setEditing(null);
      setDialogRange(selection);
    },
    /** The same dialog, for a chart already on the sheet. */
    openEdit(chart: ChartDefinition) {
      setDialogError(null);
      setEditing(chart);
      setDialogRange(chart.range);
    },
    closeDialog() {
      setDialogRange(null);
      setEditing(null);
    },
    newBox: () => newChartBox(hostRef.current.charts.length, dialogRange),
    /** The dialog's Insert (a new chart) or Save (the chart being edited: its box stays where it is now). */
    async submit(options: ChartOptions) {
      const sheetId = hostRef.current.sheetId;
      if (!sheetId) return;
      setBusy(true);
      const current = editing ? hostRef.current.charts.find((c) => c.id === editing.id) : undefined;
      const result = editing ? await service.update(sheetId, editing.id, { ...options, box: current?.box ?? options.box }) : await service.create(sheetId, options);
      setBusy(false);
      if (result.success) {
        hostRef.current.setCharts(result.data.charts);
        setDialogRange(null);
        setEditing(null);
      } else setDialogError(result.error);
    },
    async move(chart: ChartDefinition, box: ChartBox) {
      const sheetId = hostRef.current.sheetId;
      if (!sheetId) return;
      const before = hostRef.current.charts;
      // Shown where it was dropped at once; put back if the server refuses.
      hostRef.current.setCharts(before.map((c) => (c.id === chart.id ? { ...c, box } : c)));
      apply(await service.update(sheetId, chart.id, { ...optionsOf(chart), box }), before);
    },
    async remove(chart: ChartDefinition) {
      const sheetId = hostRef.current.sheetId;
      if (!sheetId) return;
      apply(await service.remove(sheetId, chart.id));
    },
  };
}
