import { Box, Button, Center, Flex, Heading, Spinner, Text, VStack } from '@chakra-ui/react';
import { CHART_TEXTS, type ChartBox, type SheetFilterBody, type ChartDefinition, confirmDeleteSheet, type ExportFormat, formulasOverLimit, MESSAGES, type RemoteProps, type ShellContext } from '@tessera/contracts';
import { ConfirmDialog, Notice, steadyShell } from '@tessera/ui-kit';
import { useEffect, useMemo, useRef, useState } from 'react';
import { can } from '../access/can.js';
import type { ComputedValue } from '../charts/chart-data.js';
import { ChartLayer, ChartStrip, type KeepRows, scrollChartLayer } from '../charts/ChartLayer.js';
import { type ChartGeometry, linkedGeometry } from '../charts/chart-geometry.js';
import { useChartStrip } from '../charts/use-chart-strip.js';
import { InsertChartDialog } from '../charts/InsertChartDialog.js';
import { useSheetCharts } from '../charts/use-sheet-charts.js';
import { CellHistoryDialog } from './cell-history/CellHistoryDialog.js';
import { createCellHistoryService } from './cell-history/cell-history.service.js';
import { CodeView } from './CodeView.js';
import { ErrorBox } from './ErrorBox.js';
import type { FindTarget } from './find/find-controller.js';
import { FindBar } from './find/FindBar.js';
import { FilterBar } from './filter/FilterBar.js';
import { FilterDialog } from './filter/FilterDialog.js';
import { sheetFilter } from './filter/sheet-filter.js';
import { useFind } from './find/use-find.js';
import { FORMULA_MAX_CELLS } from './grid/formulas/formula-values.js';
import { gridLink } from './grid/grid-link.js';
import { restorePlace } from './grid/grid-place.js';
import { headerLabel, storedSize, toCellValue } from './grid/grid-shape.js';
import { SheetGrid } from './grid/SheetGrid.js';
import { PreviewBanner } from './preview/PreviewBanner.js';
import { useVersionPreview } from './preview/use-version-preview.js';
import { createVersionService } from './preview/version.service.js';
import type { LoadedSheet } from './session/sheet-session.store.js';
import { useSheetSession } from './session/use-sheet-session.js';
import { WithDataTick } from './session/WithDataTick.js';
import { createSheetService } from './sheet.service.js';
import { TimelineMenu } from './timeline/TimelineMenu.js';
import { createTimelineService } from './timeline/timeline.service.js';
import { WindowedGrid } from './windowed/WindowedGrid.js';
import { LiveSaveStatus } from './toolbar/LiveSaveStatus.js';
import { SheetToolbar, type WorkspaceView } from './toolbar/SheetToolbar.js';

export interface WorkspaceProps extends RemoteProps {
  /** Shows the sheet without editing (the Versions issue previews a version with it). */
  readOnly?: boolean;
}

/**
 * The data tab (spec 01 §2): the sheet toolbar, the grid (only while the data tab is
 * shown), 'Loading sheet...', the dismissible error box, and the Code tab.
 */
function Workspace({ shell, readOnly = false }: WorkspaceProps) {
  const service = useMemo(() => createSheetService(shell.api), [shell.api]);
  const timelineService = useMemo(() => createTimelineService(shell.api), [shell.api]);
  const versionService = useMemo(() => createVersionService(shell.api), [shell.api]);
  const cellHistoryService = useMemo(() => createCellHistoryService(shell.api), [shell.api]);
  const session = useSheetSession(shell, service);
  const { phase, sheet, name, size, formulaEngine, error } = session.state;
  const [view, setView] = useState<WorkspaceView>('sheet');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [historyCell, setHistoryCell] = useState<{ row: number; col: number } | null>(null);
  // The column whose row filter's dialog is open (the user's own filter: filter/).
  const [filterColumn, setFilterColumn] = useState<number | null>(null);
  // A windowed sheet's row filter is judged by the api (its rows are not all here).
  const sheetId = sheet?.id ?? null;
  const askFilter = useMemo(() => (body: SheetFilterBody) => service.filter(sheetId ?? '', body), [service, sheetId]);
  const askFilterValues = useMemo(
    () => async (column: number, search: string, all?: boolean) => {
      if (!sheet) return { error: '' };
      const answer = await service.filterValues(sheet.id, { filters: sheetFilter(sheet.data).bodies(), column, search, ...(all ? { all } : {}) });
      return answer.success ? answer.data : { error: answer.error };
    },
    [service, sheet],
  );

  const preview = useVersionPreview(shell, versionService, {
    sheetId: phase === 'ready' && sheet ? sheet.id : null,
    liveGrid: () => shell.sheet.getData(),
    live: session.store,
    windowedLive: phase === 'ready' && sheet ? sheet.windowed : null,
    beforeApply: session.flush,
    onApplied: session.reload,
  });
  const previewed = preview.state.phase === 'ready' ? preview.state.version : null;
  // Stable across renders, so the grid re-renders only when the version or the differences change.
  const previewHeaders = useMemo(() => (previewed ? { current: previewed.headers } : null), [previewed]);
  const highlight = useMemo(() => (preview.diff && preview.diff.count > 0 ? preview.diff.has : null), [preview.diff]);
  // The toolbar's size is the grid's shown: a previewed version's own (a windowed one's from its windows), not the live sheet's.
  const previewWindowed = preview.state.phase === 'ready' ? preview.state.windowed?.sheet : undefined;
  const previewSize = useMemo(
    () => (!previewed ? null : previewWindowed ? { rows: previewWindowed.rowCount, cols: previewWindowed.colCount } : storedSize(previewed.rows, 0, previewed.headers.length)),
    [previewed, previewWindowed],
  );
  // The grid is read-only while a version preview is open (spec 02 §2).
  // A viewer (issue 18) gets the grid without input: the server refuses their writes anyway.
  const viewOnly = session.state.access === 'viewer';
  // So is a windowed grid while the sheet switches to whole (its edits would have no live link to go out on).
  const locked = readOnly || viewOnly || preview.state.phase !== 'off' || session.state.switching;
  const charts = useSheetCharts(shell.api, {
    sheetId: sheet?.id ?? null,
    size,
    charts: session.state.charts,
    setCharts: session.setCharts,
    flush: session.flush,
    version: session.currentVersion,
    pending: session.hasPending,
  });
  // The charts' layer, moved with the grid's scroll so each chart stays over its cells.
  const chartLayer = useRef<HTMLDivElement>(null);
  const scroll = useRef({ left: 0, top: 0 });
  const onGridScroll = useMemo(
    () => (left: number, top: number) => {
      scroll.current = { left, top };
      scrollChartLayer(chartLayer.current, left, top);
    },
    [],
  );
  // Charts plot a formula by its value: read from the grid shown (live or previewed) once its worker computes it.
  // gridLinked: raised when a grid mounts and when its formulas' values arrive, so the charts read again.
  const [gridLinked, setGridLinked] = useState(0);
  const onGridLinked = useMemo(() => () => setGridLinked((n) => n + 1), []);
  // Values arrive after every edit of a sheet with formulas: without charts to redraw, re-rendering
  // the Workspace for them would double the main thread's work of an edit (its Chakra tree).
  const chartsShown = useRef(false);
  chartsShown.current = (previewed ? (previewed.charts?.length ?? 0) : session.state.charts.length) > 0;
  const onFormulaValues = useMemo(() => () => chartsShown.current && setGridLinked((n) => n + 1), []);
  // The shown grid's cells when they are more than its formulas can be computed for (they show as text).
  const [formulaCellsOverLimit, setFormulaCellsOverLimit] = useState<number | null>(null);
  // A windowed sheet has no formula engine: it opened windowed with formulas only when past the bound, counted by the server.
  const overLimit = sheet?.windowed ? (sheet.formulaCellsOverLimit ?? null) : formulaCellsOverLimit;
  const chartRows = previewed ? previewed.rows : (sheet?.data ?? null);
  const chartEngine = previewed ? (preview.state.phase === 'ready' ? preview.state.formulaEngine : null) : formulaEngine;
  const computed = useMemo<ComputedValue | null>(() => {
    if (!chartRows || !chartEngine) return null;
    const link = gridLink(chartRows);
    // Asked only for formula cells (chart-data reads the others from the rows): undefined until computed.
    return (row, col) => link.formulas?.value(row, col);
    // gridLinked: the same rows get a new grid when the engine engages.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chartRows, chartEngine, gridLinked]);
  // Where the shown grid's cells are: a chart's box is anchored to a cell. A windowed grid tells it (its slab moves).
  // Kept as it moves; the Workspace renders again for it only when there are charts to place.
  const slabGeometry = useRef<ChartGeometry | undefined>(undefined);
  const [, setSlabMoves] = useState(0);
  const onSlabGeometry = useMemo(
    () => (moved: ChartGeometry) => {
      slabGeometry.current = moved;
      if (chartsShown.current) setSlabMoves((n) => n + 1);
    },
    [],
  );
  const windowedShown = previewed ? (preview.state.phase === 'ready' ? (preview.state.windowed?.sheet ?? null) : null) : (sheet?.windowed ?? null);
  const linkedCells = useMemo(() => (chartRows ? linkedGeometry(() => gridLink(chartRows).hot) : undefined), [chartRows]);
  const geometry = windowedShown ? slabGeometry.current : linkedCells;
  // A windowed sheet's (or version's) charts read the rows of their ranges through its windows.
  const keepRows = useMemo<KeepRows | null>(() => (windowedShown ? (start, end, onRows) => windowedShown.keep(start, end, onRows) : null), [windowedShown]);
  // A chat message's 'Show chart' (a chart the AI made): once its sheet is shown here, the grid
  // scrolls to the chart's cell (once per request) and the chart is outlined.
  const [chartFocus, setChartFocus] = useState<{ sheetId: string; chartId: string } | null>(null);
  useEffect(() => shell.bus.on('chart-focus', (focus) => setChartFocus({ ...focus })), [shell.bus]);
  const focusedChartId = chartFocus && sheet && chartFocus.sheetId === sheet.id && !previewed ? chartFocus.chartId : null;
  const scrolledTo = useRef<typeof chartFocus>(null);
  useEffect(() => {
    if (!focusedChartId || !sheet || scrolledTo.current === chartFocus) return;
    const chart = session.state.charts.find((c) => c.id === focusedChartId);
    const { hot, jumpTo } = gridLink(sheet.data);
    if (!chart || !hot || hot.isDestroyed) return;
    scrolledTo.current = chartFocus;
    // A windowed grid holds a slab of rows: it moves it to the chart's row.
    if (jumpTo) jumpTo(chart.box.row, chart.box.col);
    else hot.scrollViewportTo({ row: chart.box.row, col: chart.box.col });
  }, [focusedChartId, chartFocus, sheet, session.state.charts, gridLinked]);
  // A windowed sheet switched to whole (a formula came): its grid opens where the user was, once.
  const placedLoad = useRef<number | null>(null);
  useEffect(() => {
    if (!sheet?.place || sheet.windowed || placedLoad.current === sheet.loadKey) return;
    const { hot } = gridLink(sheet.data);
    if (!hot || hot.isDestroyed) return;
    placedLoad.current = sheet.loadKey;
    restorePlace(hot, sheet.place);
  }, [sheet, gridLinked]);
  // A narrow sheet shows its charts in a strip beside the grid, not over it.
  const strip = useChartStrip();
  // Find (Ctrl+F): in the grid shown; a windowed sheet's, and a windowed sheet's version in preview, through the api.
  const workspaceBox = useRef<HTMLDivElement>(null);
  const gridShown = view === 'sheet' && phase === 'ready' && !!sheet && shell.tab === 'data';
  const findTarget: FindTarget =
    preview.state.phase === 'ready' && preview.state.windowed && previewed && sheet
      ? // The preview grid's link is the version's (empty) rows array: nobody else's grid answers to it.
        { kind: 'windowed', sheet: preview.state.windowed.sheet, link: previewed.rows, search: (query) => versionService.find(sheet.id, previewed.version_id, query) }
      : previewed
        ? { kind: 'whole', data: previewed.rows }
        : sheet?.windowed
          ? // The user's row filter goes with each search: the api finds and counts in the rows it shows only.
            { kind: 'windowed', sheet: sheet.windowed, link: sheet.data, filters: () => sheetFilter(sheet.data).bodies(), search: (query, filters) => service.find(sheet.id, query, filters) }
          : sheet
            ? { kind: 'whole', data: sheet.data }
            : { kind: 'unavailable' };
  const findGrid = () => (findTarget.kind === 'whole' ? gridLink(findTarget.data).hot : findTarget.kind === 'windowed' && findTarget.link ? gridLink(findTarget.link).hot : null);
  const find = useFind(findTarget, gridShown, workspaceBox, findGrid);
  const stripRef = strip.ref;
  const workspaceRef = useMemo(
    () => (el: HTMLDivElement | null) => {
      workspaceBox.current = el;
      stripRef(el);
    },
    [stripRef],
  );
  // The layer mounts with the first chart: it starts where the grid is scrolled.
  const chartLayerRef = useMemo(
    () => (el: HTMLDivElement | null) => {
      chartLayer.current = el;
      scrollChartLayer(el, scroll.current.left, scroll.current.top);
    },
    [],
  );

  if (shell.sheet.id === null) {
    return (
      <Flex direction="column" h="full">
        <SheetToolbar sheet={null} view={view} onViewChange={setView} onSave={noop} onExport={noop} onDuplicate={noop} onDelete={noop} />
        <Center flex="1" p="8">
          <VStack gap="2">
            <Heading size="md">{MESSAGES.noSheetSelected}</Heading>
            <Text color="fg.muted">{MESSAGES.noSheetSelectedHint}</Text>
          </VStack>
        </Center>
      </Flex>
    );
  }

  const chartLayerProps =
    view === 'sheet' && phase === 'ready' && sheet && shell.tab === 'data'
      ? {
          charts: previewed ? (previewed.charts ?? []) : session.state.charts,
          grid: previewed ? previewed.rows : sheet.data,
          headers: previewed ? previewed.headers : sheet.headers.current,
          keepRows,
          changedCells: previewed ? undefined : session.changedCells,
          computed,
          geometry,
          focusedId: focusedChartId,
          canEdit: !locked,
          onMove: (chart: ChartDefinition, box: ChartBox) => void charts.move(chart, box),
          onDelete: (chart: ChartDefinition) => void charts.remove(chart),
          onEdit: charts.openEdit,
        }
      : null;

  // What both grids take: read-only over a version preview, or the loaded sheet's live handlers.
  const onCellHistory = (row: number, col: number) => setHistoryCell({ row, col });
  const previewGrid = { readOnly: true, findMarks: find.controller.marks, onCellHistory, onCellsChanged: noop, onStructureChanged: noop, onSelect: noop, onScroll: onGridScroll };
  const liveGrid = (loaded: LoadedSheet) => ({
    readOnly: locked,
    findMarks: find.controller.marks,
    onCellHistory,
    onCellsChanged: session.onCellsChanged,
    onStructureChanged: session.onStructureChanged,
    onSortRows: session.sortRows,
    freeze: loaded.freeze,
    onSelect: session.onSelect,
    onSelectRange: charts.onSelectRange,
    onScroll: onGridScroll,
  });

  const exportAs = async (format: ExportFormat) => {
    setExporting(format);
    try {
      await session.exportAs(format);
    } finally {
      setExporting(null);
    }
  };

  const remove = async () => {
    setDeleting(true);
    const removed = await session.remove();
    setDeleting(false);
    if (removed) setConfirmingDelete(false);
  };

  return (
    <Flex
      direction="column"
      h="full"
      minH="0"
      data-testid="workspace"
      ref={workspaceRef}
    >
      <SheetToolbar
        sheet={phase === 'ready' ? { name, size: previewSize ?? size, status: <LiveSaveStatus store={session.store} /> } : null}
        view={view}
        onViewChange={setView}
        onSave={() => void session.save()}
        onExport={(format) => void exportAs(format)}
        exporting={exporting}
        onDuplicate={() => void session.duplicate()}
        onDelete={() => setConfirmingDelete(true)}
        readOnly={locked}
        viewOnly={viewOnly}
        canDelete={can(session.state.access, 'own')}
        timeline={
          sheet && (
            <TimelineMenu
              sheetId={sheet.id}
              live={session.store}
              service={timelineService}
              bus={shell.bus}
              beforeRestore={session.flush}
              onRestored={(result) => {
                // A restore is a checkout (DESIGN.md § Versions): everyone on the sheet reloads it (spec 02 §4).
                shell.live.requestReload();
                session.reload(result.version);
              }}
              onPreview={(version) => preview.open(String(version))}
              readOnly={locked}
            />
          )
        }
        charts={
          sheet &&
          !locked && (
            <Button size="xs" variant="outline" data-testid="insert-chart" disabled={!charts.hasSelection} title={charts.hasSelection ? undefined : CHART_TEXTS.noRange} onClick={charts.openDialog}>
              {CHART_TEXTS.insert}
            </Button>
          )
        }
      />
      {preview.state.phase !== 'off' && (
        <PreviewBanner state={preview.state} staged={preview.staged} diff={preview.diff} onApply={() => void preview.apply()} onExit={preview.exit} />
      )}
      {error && <ErrorBox message={error} onDismiss={session.dismissError} />}
      {charts.error && <ErrorBox message={charts.error} onDismiss={charts.dismissError} />}
      {overLimit !== null && <Notice status="warning" detail={formulasOverLimit(overLimit, FORMULA_MAX_CELLS)} data-testid="formulas-over-limit" m="2" width="auto" />}
      {/* The user's row filter: on the live whole grid only (a version preview shows every row). */}
      {view === 'sheet' && phase === 'ready' && sheet && !previewed && shell.tab === 'data' && <FilterBar data={sheet.data} />}
      <Flex flex="1" minH="0">
        <Box flex="1" minH="0" minW="0" position="relative">
          {view === 'code' ? (
            <CodeView shell={shell} />
          ) : phase === 'loading' ? (
            <Center h="full" gap="2">
              <Spinner size="sm" />
              <Text>{MESSAGES.loadingSheet}</Text>
            </Center>
          ) : phase === 'ready' && sheet && shell.tab === 'data' && preview.state.phase === 'ready' && preview.state.windowed && previewHeaders ? (
            // A windowed sheet's version (issue 23): a window at a time, the differences of the rows shown highlighted.
            <WindowedGrid
              key={`preview-${preview.state.version.version_id}`}
              sheet={preview.state.windowed.sheet}
              link={previewed?.rows}
              headers={previewHeaders}
              {...previewGrid}
              highlight={preview.state.windowed}
              onGeometry={onSlabGeometry}
            />
          ) : phase === 'ready' && sheet && shell.tab === 'data' && previewed && previewHeaders ? (
            // The previewed version, read-only, its differences from the live grid highlighted.
            <SheetGrid
              key={`preview-${previewed.version_id}`}
              data={previewed.rows}
              headers={previewHeaders}
              formulaEngine={preview.state.phase === 'ready' ? preview.state.formulaEngine : null}
              {...previewGrid}
              highlight={highlight}
              onLinked={onGridLinked}
              onFormulaValues={onFormulaValues}
              onFormulasOverLimit={setFormulaCellsOverLimit}
            />
          ) : phase === 'ready' && sheet?.windowed && shell.tab === 'data' ? (
            // A sheet too large to load whole (issue 23): a window of its rows at a time.
            <WindowedGrid
              key={sheet.loadKey}
              sheet={sheet.windowed}
              link={sheet.data}
              headers={sheet.headers}
              {...liveGrid(sheet)}
              onCellsCleared={session.clearCells}
              onClearsUndone={session.undoClears}
              onSettled={session.flush}
              filter={sheetFilter(sheet.data)}
              askFilter={askFilter}
              onFilterColumn={setFilterColumn}
              onGeometry={onSlabGeometry}
            />
          ) : phase === 'ready' && sheet && shell.tab === 'data' ? (
            // Rendered only while the data tab is shown: Handsontable cannot measure a hidden box.
            <SheetGrid
              key={`${sheet.loadKey}-${formulaEngine ? 'formulas' : 'plain'}`}
              data={sheet.data}
              headers={sheet.headers}
              formulaEngine={formulaEngine}
              {...liveGrid(sheet)}
              onFilterColumn={setFilterColumn}
              onLinked={onGridLinked}
              onFormulaValues={onFormulaValues}
              onFormulasOverLimit={setFormulaCellsOverLimit}
            />
          ) : null}
          {find.open && gridShown && <FindBar controller={find.controller} focusKey={find.opened} onClose={find.close} />}
          {chartLayerProps && !strip.narrow && (
            // A version preview shows that version's charts over its cells; nobody moves them there.
            <WithDataTick store={session.store}>{(tick) => <ChartLayer ref={chartLayerRef} {...chartLayerProps} dataTick={previewed ? 0 : tick} />}</WithDataTick>
          )}
        </Box>
        {chartLayerProps && strip.narrow && (
          <WithDataTick store={session.store}>{(tick) => <ChartStrip {...chartLayerProps} dataTick={previewed ? 0 : tick} width={strip.width} />}</WithDataTick>
        )}
      </Flex>
      <InsertChartDialog
        range={charts.dialogRange}
        box={charts.newBox()}
        chart={charts.editing}
        busy={charts.busy}
        error={charts.dialogError}
        onInsert={(options) => void charts.submit(options)}
        onCancel={charts.closeDialog}
      />
      {sheet && (
        <FilterDialog
          data={sheet.data}
          column={filterColumn}
          label={filterColumn === null ? '' : headerLabel(sheet.headers.current, filterColumn)}
          onClose={() => setFilterColumn(null)}
          askValues={sheet.windowed ? askFilterValues : undefined}
        />
      )}
      {sheet && <CellHistoryDialog sheetId={sheet.id} cell={historyCell} service={cellHistoryService} onClose={() => setHistoryCell(null)} />}
      <ConfirmDialog
        open={confirmingDelete}
        title={confirmDeleteSheet(name)}
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmingDelete(false)}
      />
    </Flex>
  );
}

const noop = () => {};

/**
 * What the Workspace shows from the shell: the sheet and tab of the route, who is on the sheet, the
 * user; the Code tab's editor is mounted by the shell (shell.remotes) and gets the shell's context
 * itself. The selection moving and each version reported (its own, twice per edit) do not render it again.
 */
export default steadyShell(Workspace, (shell) => [shell.sheet.id, shell.tab, othersOnSheet(shell), shell.user.id, shell.remotes]);

/** The others on the sheet and their selected cells, as one text: the user's own moves come back in presence too. */
function othersOnSheet({ presence, user }: ShellContext): string {
  return JSON.stringify(presence.onSheet.filter((u) => u.userId !== user.id).map((u) => [u.userId, u.displayName, u.color, u.selection?.row, u.selection?.col]));
}
