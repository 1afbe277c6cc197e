import { Button, Field, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import {
  type CellValue,
  type ColumnFilter,
  distinctValues,
  FILTER_CONDITION_KINDS,
  FILTER_TEXTS,
  FILTER_TEXTS_MAX,
  FILTER_VALUE_MAX_CHARS,
  FILTER_VALUES_SHOWN,
  type FilterConditionKind,
  type FilterValues,
  type GridData,
  shownCellText,
  valueMatchesSearch,
} from '@tessera/contracts';
import { DialogFrame } from '@tessera/ui-kit';
import { useEffect, useMemo, useState } from 'react';
import { shownValue } from '../grid/formulas/formula-renderer.js';
import { gridLink } from '../grid/grid-link.js';
import { rowTest, usedRows } from './grid-filter.js';
import { sheetFilter } from './sheet-filter.js';

export interface FilterDialogProps {
  data: GridData;
  /** The column filtered (0-based); null: closed. */
  column: number | null;
  /** The column's header as the grid shows it. */
  label: string;
  onClose(): void;
  /**
   * A windowed sheet's: the column's values (the first FILTER_VALUES_SHOWN matching the search, and
   * how many more) asked of the api, its rows not all being here; `error`: why it failed (shown in
   * place of the list, as the grid's status line says a failed filter). `all`: every value matching
   * (as many as a filter may list; `more`, those past it), for Select all / Clear with a search.
   */
  askValues?(column: number, search: string, all?: boolean): Promise<ServedValues | { error: string }>;
}

/** A column's values as the api lists them for the dialog, and how many more there are. */
export interface ServedValues {
  values: [string, number][];
  more: number;
}

/** The search's pause before the api is asked again (a keystroke each would be a scan each). */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * 'Filter by this column…': the column's distinct shown values with their counts, ticked when shown
 * (a search box, Select all / Clear; at most FILTER_VALUES_SHOWN listed, the rest counted), and a
 * condition. Applying sets the user's filter for the column (sheet-filter.ts); nothing is sent.
 */
export function FilterDialog(props: FilterDialogProps) {
  // Mounted only while open: its draft starts from the column's filter each time.
  return props.column === null ? null : <OpenFilterDialog {...props} column={props.column} />;
}

const NO_EXCEPTIONS: FilterValues = { mode: 'except', texts: new Set() };

function OpenFilterDialog({ data, column, label, onClose, askValues }: FilterDialogProps & { column: number }) {
  const filter = sheetFilter(data);
  const current = filter.columns.get(column);
  const [values, setValues] = useState<FilterValues>(current?.values ?? NO_EXCEPTIONS);
  const [kind, setKind] = useState<FilterConditionKind | 'none'>(current?.condition?.kind ?? 'none');
  const [value, setValue] = useState(current?.condition?.value ?? '');
  const [search, setSearch] = useState('');
  // Counted once per opening over the filter's range, in the rows the other columns' filters show (as
  // Google Sheets does: a value only hidden rows hold is no choice one can see the effect of).
  const distinct = useMemo(() => {
    if (askValues) return [];
    const formulas = gridLink(data).formulas;
    const rows = usedRows(data);
    const shown = rowTest(data, formulas, filter, column);
    function* texts() {
      for (let r = 0; r < rows; r++) if (shown(r)) yield shownCellText(shownValue(formulas, data[r]?.[column], r, column) as CellValue | undefined);
    }
    return distinctValues(texts()).values;
  }, [data, column, filter, askValues]);
  const needle = search.trim().toLowerCase();
  // A windowed sheet's values come from the api, asked again as the search changes (once it pauses).
  const [served, setServed] = useState<ServedValues | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!askValues) return undefined;
    let live = true;
    const settle = (answer: ServedValues | { error: string }) => {
      if (!live) return;
      setServed('error' in answer ? null : answer);
      setFailed('error' in answer ? answer.error : null);
    };
    const timer = setTimeout(() => void askValues(column, needle).then(settle), needle === '' ? 0 : SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [askValues, column, needle]);
  const local = useMemo(() => (needle === '' ? distinct : distinct.filter(([text]) => valueMatchesSearch(text, needle))), [distinct, needle]);
  const matching = askValues ? (served?.values ?? []) : local;
  const listed = matching.slice(0, FILTER_VALUES_SHOWN);
  const more = askValues ? (served?.more ?? 0) : matching.length - listed.length;
  const isTicked = (text: string) => values.texts.has(text) === (values.mode === 'only');

  /** Ticks (or unticks) these texts, whatever the mode. */
  const tick = (texts: string[], ticked: boolean) =>
    setValues((before) => {
      const next = new Set(before.texts);
      // 'only' lists the ticked texts, 'except' the unticked ones.
      const listedWhenTicked = before.mode === 'only';
      for (const text of texts) {
        if (ticked === listedWhenTicked) next.add(text);
        else next.delete(text);
      }
      return { mode: before.mode, texts: next };
    });
  /**
   * Select all / Clear with a search: every value it finds ticked or unticked, as the whole grid's
   * (which has them all here). A windowed sheet lists the first FILTER_VALUES_SHOWN: past them,
   * taking texts off the filter's list needs none of them (those the search finds go), adding them
   * asks the api for every value found (as many as a filter may list, else it says so).
   */
  const tickFound = (ticked: boolean) => {
    if (!askValues || more === 0) return tick(matching.map(([t]) => t), ticked);
    if (ticked !== (values.mode === 'only')) return setValues((before) => ({ mode: before.mode, texts: new Set([...before.texts].filter((t) => !valueMatchesSearch(t, needle))) }));
    void askValues(column, needle, true).then((answer) => {
      if ('error' in answer) return setFailed(answer.error);
      if (answer.more > 0) return setFailed(FILTER_TEXTS.tooManyValues(FILTER_TEXTS_MAX));
      tick(answer.values.map(([t]) => t), ticked);
    });
  };
  const selectAll = () => (needle === '' ? setValues(NO_EXCEPTIONS) : tickFound(true));
  const clearAll = () => (needle === '' ? setValues({ mode: 'only', texts: new Set() }) : tickFound(false));

  const apply = () => {
    const condition = kind === 'none' || ((kind === 'contains' || kind === 'equals' || kind === 'greater' || kind === 'less') && value.trim() === '') ? null : { kind, value };
    const next: ColumnFilter = { values: values.mode === 'except' && values.texts.size === 0 ? null : values, condition };
    filter.set(column, next);
    onClose();
  };
  const needsValue = kind === 'contains' || kind === 'equals' || kind === 'greater' || kind === 'less';

  return (
    <DialogFrame
      open
      onClose={onClose}
      title={FILTER_TEXTS.title(label)}
      contentProps={{ 'data-testid': 'filter-dialog' }}
      bodyProps={{ maxH: '70vh', overflowY: 'auto' }}
      footer={
        <Flex gap="2" w="full">
          {current && (
            <Button
              variant="ghost"
              onClick={() => {
                filter.set(column, null);
                onClose();
              }}
            >
              {FILTER_TEXTS.removeColumn}
            </Button>
          )}
          <Flex flex="1" />
          <Button variant="outline" onClick={onClose}>
            {FILTER_TEXTS.cancel}
          </Button>
          <Button colorPalette="blue" onClick={apply} data-testid="filter-apply">
            {FILTER_TEXTS.apply}
          </Button>
        </Flex>
      }
    >
      <Stack gap="3">
        <Input size="sm" placeholder={FILTER_TEXTS.search} aria-label={FILTER_TEXTS.search} value={search} maxLength={FILTER_VALUE_MAX_CHARS} onChange={(e) => setSearch(e.currentTarget.value)} />
        <Flex gap="2">
          <Button size="2xs" variant="outline" onClick={selectAll}>
            {FILTER_TEXTS.selectAll}
          </Button>
          <Button size="2xs" variant="outline" onClick={clearAll}>
            {FILTER_TEXTS.clearValues}
          </Button>
        </Flex>
        <Stack gap="1" maxH="240px" overflowY="auto" data-testid="filter-values">
          {listed.map(([text, n]) => (
            // A native checkbox: up to FILTER_VALUES_SHOWN of them, each a label and an input (no state machine per value).
            <Flex as="label" key={text} gap="2" align="center" fontSize="sm" cursor="pointer">
              <input type="checkbox" checked={isTicked(text)} onChange={(e) => tick([text], e.currentTarget.checked)} />
              <Text as="span">
                {text === '' ? FILTER_TEXTS.blank : text}{' '}
                <Text as="span" color="fg.muted">
                  ({n.toLocaleString('en-US')})
                </Text>
              </Text>
            </Flex>
          ))}
          {failed && (
            <Text fontSize="sm" color="fg.error" role="alert" data-testid="filter-values-failed">
              {failed}
            </Text>
          )}
          {listed.length === 0 && (!askValues || served) && (
            <Text fontSize="sm" color="fg.muted">
              {FILTER_TEXTS.noValues}
            </Text>
          )}
          {more > 0 && (
            <Text fontSize="sm" color="fg.muted" data-testid="filter-more">
              {FILTER_TEXTS.moreValues(more)}
            </Text>
          )}
        </Stack>
        <Flex gap="2" align="end">
          <Field.Root>
            <Field.Label>{FILTER_TEXTS.conditionLabel}</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field aria-label={FILTER_TEXTS.conditionLabel} value={kind} onChange={(e) => setKind(e.currentTarget.value as FilterConditionKind | 'none')}>
                {(['none', ...FILTER_CONDITION_KINDS] as const).map((k) => (
                  <option key={k} value={k}>
                    {FILTER_TEXTS.conditions[k]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {needsValue && (
            <Field.Root>
              <Field.Label>{FILTER_TEXTS.conditionValue}</Field.Label>
              <Input size="sm" aria-label={FILTER_TEXTS.conditionValue} value={value} maxLength={FILTER_VALUE_MAX_CHARS} onChange={(e) => setValue(e.currentTarget.value)} />
            </Field.Root>
          )}
        </Flex>
      </Stack>
    </DialogFrame>
  );
}
