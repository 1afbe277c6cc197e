import { Box, Flex, IconButton, Menu, Portal, Spinner, Text } from '@chakra-ui/react';
import {
  CHART_MAX_OFFSET,
  CHART_MAX_SIZE,
  CHART_MIN_SIZE,
  CHART_TEXTS,
  type CellValue,
  type ChartBox,
  type ChartCategorySource,
  type ChartDefinition,
  type ChartRange,
} from '@tessera/contracts';
import { forwardRef, lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { type ChartData, type ChartGrid, chartRowSpan, type ComputedValue } from './chart-data.js';
import { type ChangedCell, ChartDataCache } from './chart-data-cache.js';
import { anchorAt, boxPosition, type ChartGeometry, NOMINAL_GEOMETRY } from './chart-geometry.js';
import { downloadPng, downloadSvg } from './chart-export.js';
import { EDIT_CHART_TEXTS } from './chart-labels.js';

// Recharts and Chakra's charts come only with the first chart shown: a sheet without one loads none of it.
let loadedChartView: (typeof import('./ChartView.js'))['default'] | null = null;
const loadChartView = () =>
  import(/* webpackChunkName: "chart-view" */ './ChartView.js').then((module) => {
    loadedChartView = module.default;
    return module;
  });
const LazyChartView = lazy(loadChartView);

/** The frame's title bar, in pixels (the drawing gets the rest of the box). */
const HEADER = 28;

/**
 * Keeps rows [start, end) of a sheet not held whole (a windowed one, WindowedSheet.keep) for a
 * chart: `onRows` with them once read and again after rows or columns moved; returns the stop.
 */
export type KeepRows = (start: number, end: number, onRows: (rows: ChartGrid) => void) => () => void;

export interface ChartLayerProps {
  charts: readonly ChartDefinition[];
  /** The cells the charts read (edited in place by the grid) and the column headers. */
  grid: readonly (readonly CellValue[])[];
  headers: readonly string[];
  /**
   * A sheet not held whole (issue 23): each chart reads the rows its range needs (chartRowSpan)
   * through this instead of `grid`, kept up to date by every edit.
   */
  keepRows?: KeepRows | null;
  /** Raised on every change of the cells: the charts read them again. */
  dataTick: number;
  /**
   * The cells changed after a data tick up to another (null: unknown, or anything may have): a
   * chart reads only those again. Without it every tick reads the whole range.
   */
  changedCells?(since: number, until: number): readonly ChangedCell[] | null;
  /**
   * Formula cells' computed values (the grid's formula engine), so a formula is charted by its
   * value; a new function when the engine (or the grid it lives in) changes. Null on a sheet
   * without formulas.
   */
  computed?: ComputedValue | null;
  /** Where the grid's cells are: a box is drawn at its anchor cell and dropped onto the cell under it. */
  geometry?: ChartGeometry;
  /** The chart a chat message's 'Show chart' asked for: outlined. */
  focusedId?: string | null;
  /** Editors move, resize and delete; viewers (and a version preview) only look and download. */
  canEdit: boolean;
  onMove(chart: ChartDefinition, box: ChartBox): void;
  onDelete(chart: ChartDefinition): void;
  /** Opens the chart's options (the Insert chart dialog, reused); editors only. */
  onEdit?(chart: ChartDefinition): void;
}

/**
 * The charts over the grid (issue 20): each in a frame placed by its box, drawn lazily. A box is
 * anchored to a cell (its top-left corner an offset into that cell), so the charts stay on their
 * cells, also when rows or columns are inserted above them: the ref is the layer the grid's scroll
 * moves (`scrollChartLayer`), clipped to the grid's area.
 */
export const ChartLayer = forwardRef<HTMLDivElement, ChartLayerProps>(function ChartLayer({ charts, ...rest }, ref) {
  if (charts.length === 0) return null;
  return (
    // The clip lets the grid under it take every pointer; only the frames take theirs.
    <div style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none', zIndex: 150 }} data-testid="chart-layer">
      <div ref={ref} style={{ position: 'absolute', left: 0, top: 0, width: 0, height: 0 }}>
        {charts.map((chart) => (
          <ChartFrame key={chart.id} chart={chart} {...rest} />
        ))}
      </div>
    </div>
  );
});

/** Moves the layer by the grid's scroll (set on the element: a scroll re-renders nothing). */
export function scrollChartLayer(layer: HTMLDivElement | null, left: number, top: number) {
  if (layer) layer.style.transform = `translate(${-left}px, ${-top}px)`;
}

const clamp = (n: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, n)));

/** A frame's place in the layer's pixels while it is drawn or dragged. */
interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Widest side strip (it takes at most half a narrow sheet's area), and the height of each chart in it. */
export const CHART_STRIP_MAX_WIDTH = 340;
const STRIP_CHART_HEIGHT = 260;
/**
 * Below this width of the sheet's area the charts go to the side strip: a chart over the grid
 * (480 px wide when made) would hide most of it. A laptop window with the chat panel open is wider.
 */
export const CHART_STRIP_BELOW = 560;
/** The strip's padding and border, in pixels (a chart in it is this much narrower). */
const STRIP_INSET = 18;

/**
 * The charts in a strip beside the grid (the sheet is narrow): stacked, each at the strip's width,
 * in a scrolling column. Nobody drags or resizes them there (their box over the grid is kept for
 * a wider window); the menu stays (Edit, Delete, downloads).
 */
export function ChartStrip({ charts, width, ...rest }: ChartLayerProps & { width: number }) {
  if (charts.length === 0) return null;
  return (
    <Box w={`${width}px`} flexShrink={0} h="full" overflowY="auto" borderLeftWidth="1px" bg="bg.subtle" p="2" data-testid="chart-strip">
      <Flex direction="column" gap="2">
        {charts.map((chart) => (
          <ChartFrame key={chart.id} chart={chart} {...rest} strip={width - STRIP_INSET} />
        ))}
      </Flex>
    </Box>
  );
}

/** A frame's chart data and the data tick it has read up to. */
interface HeldData {
  cache: ChartDataCache;
  tick: number;
}

const sameRange = (a: ChartRange, b: ChartRange) => a.start_row === b.start_row && a.end_row === b.end_row && a.start_col === b.start_col && a.end_col === b.end_col;

/**
 * The chart's data at `dataTick`: the held data brought up to it by the cells changed since (the
 * same object when none of them is in the range: nothing redraws), or read whole when the grid,
 * the headers, the range, the categories or the formula values are others.
 */
function chartData(
  held: { current: HeldData | null },
  now: { grid: ChartGrid; headers: readonly string[]; range: ChartRange; categories: ChartCategorySource; computed: ComputedValue | null; dataTick: number },
  changedCells: ChartLayerProps['changedCells'],
): ChartData {
  const h = held.current;
  const { cache } = h ?? {};
  if (h && cache && cache.grid === now.grid && cache.headers === now.headers && cache.computed === now.computed && cache.source.categories === now.categories && sameRange(cache.source.range, now.range)) {
    if (h.tick === now.dataTick) return cache.data;
    const cells = changedCells ? changedCells(h.tick, now.dataTick) : null;
    h.tick = now.dataTick;
    return cache.update(cells);
  }
  const fresh = new ChartDataCache(now.grid, now.headers, { range: now.range, categories: now.categories }, now.computed);
  held.current = { cache: fresh, tick: now.dataTick };
  return fresh.data;
}

function ChartFrame({
  chart,
  grid: wholeGrid,
  headers,
  keepRows = null,
  dataTick,
  changedCells,
  computed = null,
  geometry = NOMINAL_GEOMETRY,
  focusedId = null,
  canEdit: canEditOptions,
  onMove,
  onDelete,
  onEdit,
  strip = null,
}: Omit<ChartLayerProps, 'charts'> & { chart: ChartDefinition; /** In the side strip: the width a chart has there. */ strip?: number | null }) {
  // While dragging or resizing: the frame as the pointer has it, in pixels; anchored and sent to the server on release.
  const [moving, setMoving] = useState<PixelBox | null>(null);
  const placed = (): PixelBox => ({ ...boxPosition(chart.box, geometry), width: chart.box.width, height: chart.box.height });
  // In the strip: the strip's width (less its padding), a fixed height, in the flow.
  const box = strip !== null ? { x: 0, y: 0, width: strip, height: STRIP_CHART_HEIGHT } : (moving ?? placed());
  const canMove = canEditOptions && strip === null;
  const canEdit = canEditOptions;
  const frameRef = useRef<HTMLDivElement>(null);
  // The chart's data kept across ticks: an edit reads only its cells again (chart-data-cache.ts).
  const held = useRef<HeldData | null>(null);
  const changes = useRef(changedCells);
  changes.current = changedCells;
  // Its code fetched while the chart's rows are read (a windowed sheet's are read after the frame mounts), not
  // after; loaded by the time the chart is first drawn, it is used as it is: through lazy() React would
  // suspend once more, and React 19 holds a revealed Suspense boundary back up to 300 ms. Kept for the
  // frame's life (another component type would draw the chart anew).
  useEffect(() => void loadChartView(), []);
  const view = useRef<typeof LazyChartView | NonNullable<typeof loadedChartView> | null>(null);
  // A sheet not held whole: the rows of this range, once read (until then the chart drawn before, or a spinner).
  const span = chart.range && keepRows ? chartRowSpan(chart.range, chart.categories) : null;
  const keptFor = chart.range && keepRows ? `${JSON.stringify(chart.range)}:${chart.categories}` : null;
  const [kept, setKept] = useState<{ rows: ChartGrid; key: string } | null>(null);
  useEffect(() => {
    if (!keepRows || !span || keptFor === null) return;
    return keepRows(span.start, span.end, (rows) => setKept({ rows, key: keptFor }));
    // keptFor says the range and categories (span follows them).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keepRows, keptFor]);
  // The rows kept for another range (it moved or was edited) are not read for this one.
  const grid: ChartGrid | null = keepRows ? (kept && kept.key === keptFor ? kept.rows : null) : wholeGrid;
  const data = useMemo(
    // No range: its cells were deleted, nothing to read. Rows not kept yet: what was drawn before.
    () => (chart.range ? (grid ? chartData(held, { grid, headers, range: chart.range, categories: chart.categories, computed, dataTick }, changes.current) : (held.current?.cache.data ?? null)) : null),
    // dataTick: the grid is edited in place, so its identity does not change with its cells.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [grid, headers, chart.range, chart.categories, dataTick, computed],
  );
  const reading = chart.range !== null && data === null;
  if (data && !view.current) view.current = loadedChartView ?? LazyChartView;
  const ChartView = view.current ?? LazyChartView;

  const drag = (mode: 'move' | 'resize') => (event: React.PointerEvent) => {
    if (!canMove || event.button !== 0) return;
    event.preventDefault();
    const start = { x: event.clientX, y: event.clientY, box: placed() };
    let last = start.box;
    const follow = (e: PointerEvent) => {
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      last =
        mode === 'move'
          ? { ...start.box, x: clamp(start.box.x + dx, 0, CHART_MAX_OFFSET), y: clamp(start.box.y + dy, 0, CHART_MAX_OFFSET) }
          : { ...start.box, width: clamp(start.box.width + dx, CHART_MIN_SIZE, CHART_MAX_SIZE), height: clamp(start.box.height + dy, CHART_MIN_SIZE, CHART_MAX_SIZE) };
      setMoving(last);
    };
    const release = () => {
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', release);
      setMoving(null);
      // Dropped: anchored to the cell under its top-left corner.
      if (last !== start.box) onMove(chart, { ...anchorAt(last.x, last.y, geometry), width: last.width, height: last.height });
    };
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', release);
  };

  const svg = () => frameRef.current?.querySelector<SVGSVGElement>('svg.recharts-surface') ?? null;
  const actions: Record<string, () => void> = {
    delete: () => onDelete(chart),
    edit: () => onEdit?.(chart),
    png: () => {
      const s = svg();
      if (s) void downloadPng(s, chart.title);
    },
    svg: () => {
      const s = svg();
      if (s) downloadSvg(s, chart.title);
    },
  };

  return (
    <Box
      ref={frameRef}
      position={strip !== null ? 'relative' : 'absolute'}
      left={strip !== null ? undefined : `${box.x}px`}
      top={strip !== null ? undefined : `${box.y}px`}
      flexShrink={0}
      width={`${box.width}px`}
      height={`${box.height}px`}
      pointerEvents="auto"
      bg="bg"
      borderWidth="1px"
      borderRadius="md"
      boxShadow="md"
      overflow="hidden"
      outline={focusedId === chart.id ? '3px solid' : undefined}
      outlineColor={focusedId === chart.id ? 'blue.500' : undefined}
      data-testid="chart-frame"
      data-chart-id={chart.id}
      data-focused={focusedId === chart.id ? 'true' : undefined}
    >
      <Flex
        h={`${HEADER}px`}
        px="2"
        align="center"
        gap="2"
        borderBottomWidth="1px"
        cursor={canMove ? 'move' : 'default'}
        onPointerDown={drag('move')}
        data-testid="chart-handle"
        style={{ touchAction: 'none' }}
      >
        <Text fontSize="sm" fontWeight="semibold" truncate flex="1" data-testid="chart-title-text">
          {chart.title}
        </Text>
        {data && data.skipped > 0 && (
          <Text fontSize="xs" color="fg.muted" title="Text where a number was expected is left out">
            {data.skipped} text {data.skipped === 1 ? 'cell' : 'cells'} left out
          </Text>
        )}
        <Menu.Root onSelect={({ value }) => actions[value]?.()}>
          <Menu.Trigger asChild>
            <IconButton size="2xs" variant="ghost" aria-label="Chart menu" data-testid="chart-menu" onPointerDown={(e) => e.stopPropagation()}>
              ⋮
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content>
                <Menu.Item value="png" data-testid="chart-download-png">
                  {CHART_TEXTS.downloadPng}
                </Menu.Item>
                <Menu.Item value="svg" data-testid="chart-download-svg">
                  {CHART_TEXTS.downloadSvg}
                </Menu.Item>
                {canEdit && onEdit && (
                  <Menu.Item value="edit" data-testid="chart-edit">
                    {EDIT_CHART_TEXTS.menu}
                  </Menu.Item>
                )}
                {canEdit && (
                  <Menu.Item value="delete" data-testid="chart-delete" color="fg.error">
                    {CHART_TEXTS.delete}
                  </Menu.Item>
                )}
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </Flex>
      <Suspense
        fallback={
          <Flex h={`${box.height - HEADER}px`} align="center" justify="center">
            <Spinner size="sm" />
          </Flex>
        }
      >
        {data ? (
          <ChartView chart={chart} data={data} width={box.width - 2} height={box.height - HEADER - 2} />
        ) : reading ? (
          <Flex h={`${box.height - HEADER}px`} align="center" justify="center" data-testid="chart-reading">
            <Spinner size="sm" />
          </Flex>
        ) : (
          <Flex h={`${box.height - HEADER}px`} align="center" justify="center" p="4" textAlign="center">
            <Text fontSize="sm" color="fg.muted" data-testid="chart-range-deleted">
              {CHART_TEXTS.rangeDeleted}
            </Text>
          </Flex>
        )}
      </Suspense>
      {canMove && (
        <Box
          position="absolute"
          right="0"
          bottom="0"
          w="14px"
          h="14px"
          cursor="nwse-resize"
          onPointerDown={drag('resize')}
          data-testid="chart-resize"
          style={{ touchAction: 'none', background: 'linear-gradient(135deg, transparent 50%, var(--chakra-colors-border-emphasized) 50%)' }}
        />
      )}
    </Box>
  );
}
