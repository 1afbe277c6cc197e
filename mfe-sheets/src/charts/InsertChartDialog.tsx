import { Button, Checkbox, Dialog, Field, Flex, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import {
  CHART_AXIS_TITLE_MAX_LENGTH,
  CHART_LEGEND_POSITIONS,
  CHART_TEXTS,
  CHART_TITLE_MAX_LENGTH,
  CHART_TYPES,
  type ChartCategorySource,
  type ChartDefinition,
  type ChartLegendPosition,
  type ChartOptions,
  type ChartRange,
  type ChartType,
} from '@tessera/contracts';
import { useEffect, useState } from 'react';
import { CHART_TYPE_LABELS, EDIT_CHART_TEXTS, LEGEND_LABELS, parseRangeLabel, rangeLabel } from './chart-labels.js';

export interface InsertChartDialogProps {
  /** The selected range; null closes the dialog. */
  range: ChartRange | null;
  /** Where the new chart's box goes (over the grid). */
  box: ChartOptions['box'];
  /** A chart on the sheet to change: the fields start from it, its box stays, the button saves. */
  chart?: ChartDefinition | null;
  busy?: boolean;
  error?: string | null;
  onInsert(options: ChartOptions): void;
  onCancel(): void;
}

/**
 * 'Insert chart' (issue 20): the range (as A1:B4, changeable), type, where the categories come
 * from (with a swap), title, axis titles, legend, stacked. It says that an XLSX export keeps the
 * data but not the chart. Given a `chart`, the same dialog changes that chart.
 */
export function InsertChartDialog({ range, box, chart = null, busy = false, error = null, onInsert, onCancel }: InsertChartDialogProps) {
  const [rangeText, setRangeText] = useState('');
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [type, setType] = useState<ChartType>('column');
  const [categories, setCategories] = useState<ChartCategorySource>('first_column');
  const [title, setTitle] = useState('');
  const [xTitle, setXTitle] = useState('');
  const [yTitle, setYTitle] = useState('');
  const [legend, setLegend] = useState<ChartLegendPosition>('bottom');
  const [stacked, setStacked] = useState(false);
  // A fresh dialog for each range (or chart changed).
  useEffect(() => {
    if (!range) return;
    // A chart whose cells were deleted has no range: the field starts empty, to be typed.
    setRangeText(chart && chart.range === null ? '' : rangeLabel(range));
    setRangeError(null);
    setType(chart?.type ?? 'column');
    setCategories(chart?.categories ?? 'first_column');
    setTitle(chart?.title ?? '');
    setXTitle(chart?.x_axis_title ?? '');
    setYTitle(chart?.y_axis_title ?? '');
    setLegend(chart?.legend ?? 'bottom');
    setStacked(chart?.stacked ?? false);
  }, [range, chart]);

  const submit = () => {
    const chosen = parseRangeLabel(rangeText);
    if (!chosen) {
      setRangeError(EDIT_CHART_TEXTS.badRange);
      return;
    }
    onInsert({ type, range: chosen, categories, title, x_axis_title: xTitle, y_axis_title: yTitle, legend, stacked, box: chart?.box ?? box });
  };

  return (
    <Dialog.Root open={range !== null} onOpenChange={(e) => !e.open && onCancel()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="insert-chart-dialog">
            <Dialog.Header>
              <Dialog.Title>{chart ? EDIT_CHART_TEXTS.title : CHART_TEXTS.dialogTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Field.Root invalid={rangeError !== null}>
                  <Field.Label>{EDIT_CHART_TEXTS.range}</Field.Label>
                  <Input
                    size="sm"
                    data-testid="chart-range"
                    value={rangeText}
                    maxLength={24}
                    onChange={(e) => {
                      setRangeText(e.currentTarget.value);
                      setRangeError(null);
                    }}
                  />
                  {rangeError && <Field.ErrorText>{rangeError}</Field.ErrorText>}
                </Field.Root>
                <Field.Root>
                  <Field.Label>Type</Field.Label>
                  <NativeSelect.Root size="sm">
                    <NativeSelect.Field data-testid="chart-type" value={type} onChange={(e) => setType(e.currentTarget.value as ChartType)}>
                      {CHART_TYPES.map((t) => (
                        <option key={t} value={t}>
                          {CHART_TYPE_LABELS[t]}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
                <Flex align="center" gap="2">
                  <Text fontSize="sm" data-testid="chart-categories">
                    {categories === 'first_column' ? CHART_TEXTS.categoriesFirstColumn : CHART_TEXTS.categoriesHeaderRow}
                  </Text>
                  <Button
                    size="xs"
                    variant="outline"
                    data-testid="chart-swap"
                    onClick={() => setCategories((c) => (c === 'first_column' ? 'header_row' : 'first_column'))}
                  >
                    {CHART_TEXTS.swap}
                  </Button>
                </Flex>
                <Field.Root>
                  <Field.Label>Title</Field.Label>
                  <Input size="sm" data-testid="chart-title" value={title} maxLength={CHART_TITLE_MAX_LENGTH} onChange={(e) => setTitle(e.currentTarget.value)} />
                </Field.Root>
                <Flex gap="2">
                  <Field.Root>
                    <Field.Label>Horizontal axis title</Field.Label>
                    <Input size="sm" data-testid="chart-x-title" value={xTitle} maxLength={CHART_AXIS_TITLE_MAX_LENGTH} onChange={(e) => setXTitle(e.currentTarget.value)} />
                  </Field.Root>
                  <Field.Root>
                    <Field.Label>Vertical axis title</Field.Label>
                    <Input size="sm" data-testid="chart-y-title" value={yTitle} maxLength={CHART_AXIS_TITLE_MAX_LENGTH} onChange={(e) => setYTitle(e.currentTarget.value)} />
                  </Field.Root>
                </Flex>
                <Flex gap="4" align="end">
                  <Field.Root>
                    <Field.Label>Legend</Field.Label>
                    <NativeSelect.Root size="sm">
                      <NativeSelect.Field data-testid="chart-legend" value={legend} onChange={(e) => setLegend(e.currentTarget.value as ChartLegendPosition)}>
                        {CHART_LEGEND_POSITIONS.map((p) => (
                          <option key={p} value={p}>
                            {LEGEND_LABELS[p]}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                  </Field.Root>
                  <Checkbox.Root checked={stacked} onCheckedChange={(e) => setStacked(e.checked === true)} data-testid="chart-stacked">
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>Stacked</Checkbox.Label>
                  </Checkbox.Root>
                </Flex>
                <Text fontSize="xs" color="fg.muted" data-testid="chart-xlsx-note">
                  {CHART_TEXTS.xlsxNote}
                </Text>
                {error && (
                  <Text fontSize="sm" color="fg.error" role="alert">
                    {error}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button data-testid="chart-insert" loading={busy} onClick={submit}>
                {chart ? EDIT_CHART_TEXTS.save : EDIT_CHART_TEXTS.insert}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
