import { Button, Checkbox, Dialog, Field, Flex, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import {
  CHART_AXIS_TITLE_MAX_LENGTH,
  CHART_LEGEND_POSITIONS,
  CHART_TEXTS,
  CHART_TITLE_MAX_LENGTH,
  CHART_TYPES,
  type ChartCategorySource,
  type ChartLegendPosition,
  type ChartOptions,
  type ChartRange,
  type ChartType,
} from '@tessera/contracts';
import { useEffect, useState } from 'react';
import { CHART_TYPE_LABELS, LEGEND_LABELS, rangeLabel } from './chart-labels.js';

export interface InsertChartDialogProps {
  /** The selected range; null closes the dialog. */
  range: ChartRange | null;
  /** Where the new chart's box goes (over the grid). */
  box: ChartOptions['box'];
  busy?: boolean;
  error?: string | null;
  onInsert(options: ChartOptions): void;
  onCancel(): void;
}

/**
 * 'Insert chart' (issue 20): type, where the categories come from (with a swap), title, axis
 * titles, legend, stacked. It says that an XLSX export keeps the data but not the chart.
 */
export function InsertChartDialog({ range, box, busy = false, error = null, onInsert, onCancel }: InsertChartDialogProps) {
  const [type, setType] = useState<ChartType>('column');
  const [categories, setCategories] = useState<ChartCategorySource>('first_column');
  const [title, setTitle] = useState('');
  const [xTitle, setXTitle] = useState('');
  const [yTitle, setYTitle] = useState('');
  const [legend, setLegend] = useState<ChartLegendPosition>('bottom');
  const [stacked, setStacked] = useState(false);
  // A fresh dialog for each range.
  useEffect(() => {
    if (!range) return;
    setType('column');
    setCategories('first_column');
    setTitle('');
    setXTitle('');
    setYTitle('');
    setLegend('bottom');
    setStacked(false);
  }, [range]);

  const submit = () => {
    if (!range) return;
    onInsert({ type, range, categories, title, x_axis_title: xTitle, y_axis_title: yTitle, legend, stacked, box });
  };

  return (
    <Dialog.Root open={range !== null} onOpenChange={(e) => !e.open && onCancel()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="insert-chart-dialog">
            <Dialog.Header>
              <Dialog.Title>{CHART_TEXTS.dialogTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text fontSize="sm" data-testid="chart-range">
                  Range {range ? rangeLabel(range) : ''}
                </Text>
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
                Insert
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
