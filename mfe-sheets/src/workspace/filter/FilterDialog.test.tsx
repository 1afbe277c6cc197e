import { fireEvent, screen, waitFor } from '@testing-library/react';
import { distinctValues, FILTER_TEXTS, FILTER_TEXTS_MAX, FILTER_VALUES_SHOWN, type GridData, valueMatchesSearch } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { FilterDialog } from './FilterDialog.js';
import { sheetFilter } from './sheet-filter.js';

/** Two empty cells, then 250 distinct values in column 0 (v0..v249); empty rows after the last value are outside the filter. */
const rows: GridData = [[null], [''], ...Array.from({ length: 250 }, (_, i) => [`v${i}`]), [null]];

test('the values list is bounded (the rest counted), a search narrows it, and Select all / Clear act on the values found', () => {
  renderInShell(<FilterDialog data={rows} column={0} label="Code" onClose={() => {}} />);
  const list = screen.getByTestId('filter-values');
  expect(list.querySelectorAll('input[type=checkbox]')).toHaveLength(FILTER_VALUES_SHOWN);
  expect(screen.getByTestId('filter-more')).toHaveTextContent(FILTER_TEXTS.moreValues(251 - FILTER_VALUES_SHOWN));
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'v24' } });
  // v24 and v240..v249.
  expect(list.querySelectorAll('input[type=checkbox]')).toHaveLength(11);
  expect(screen.queryByTestId('filter-more')).toBeNull();
  // Only what the search found is unticked; the filter shows every other row.
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clearValues }));
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  const filter = sheetFilter(rows).columns.get(0)!;
  expect(filter.values?.mode).toBe('except');
  expect([...filter.values!.texts].sort()).toEqual(['v24', ...Array.from({ length: 10 }, (_, i) => `v24${i}`)].sort());
});

test('the empty cells inside the range are one value, (Blanks), with their count', () => {
  renderInShell(<FilterDialog data={rows} column={0} label="Code" onClose={() => {}} />);
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'blank' } });
  expect(screen.getByTestId('filter-values')).toHaveTextContent(`${FILTER_TEXTS.blank} (2)`);
});

test("a windowed sheet's values that the api could not give: the dialog says why (the service's text) instead of an empty list; a later answer replaces it", async () => {
  const FAILED = 'The sheet could not be loaded: You have 4 sheet reads under way. Wait for one to finish.';
  const asked: string[] = [];
  const askValues = async (_column: number, search: string) => {
    asked.push(search);
    return search === '' ? { error: FAILED } : { values: [['v1', 3]] as [string, number][], more: 0 };
  };
  renderInShell(<FilterDialog data={[]} column={0} label="Code" onClose={() => {}} askValues={askValues} />);
  expect(await screen.findByRole('alert')).toHaveTextContent(FAILED);
  expect(screen.queryByText(FILTER_TEXTS.noValues)).toBeNull();
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'v' } });
  await waitFor(() => expect(screen.getByTestId('filter-values')).toHaveTextContent('v1 (3)'));
  expect(screen.queryByRole('alert')).toBeNull();
  expect(asked).toEqual(['', 'v']);
});

/** A windowed sheet's api for the dialog: 250 values v0..v249 (one cell each), the first 200 matching listed, every one with `all`. */
function servedValues(overflow = false) {
  const asked: [string, boolean | undefined][] = [];
  const texts = Array.from({ length: 250 }, (_, i) => `v${i}`);
  const askValues = async (_column: number, search: string, all?: boolean) => {
    asked.push([search, all]);
    const found = distinctValues(texts.filter((t) => valueMatchesSearch(t, search))).values;
    const shown = all ? (overflow ? found.slice(0, 100) : found) : found.slice(0, FILTER_VALUES_SHOWN);
    return { values: shown, more: found.length - shown.length };
  };
  return { asked, askValues, texts };
}

test("a windowed sheet's Select all / Clear with a search act on every value it finds, past the 200 listed: taking texts off the filter's list here, adding them from the api's every value", async () => {
  const data: GridData = [];
  const { asked, askValues, texts } = servedValues();
  renderInShell(<FilterDialog data={data} column={0} label="Code" onClose={() => {}} askValues={askValues} />);
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'v' } });
  await waitFor(() => expect(screen.getByTestId('filter-more')).toHaveTextContent(FILTER_TEXTS.moreValues(50)));
  const boxes = () => [...screen.getByTestId('filter-values').querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
  // Clear: every value found unticked (asked of the api: 250, not the 200 listed).
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clearValues }));
  await waitFor(() => expect(boxes().every((b) => !b.checked)).toBe(true));
  expect(asked.at(-1)).toEqual(['v', true]);
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  const unticked = sheetFilter(data).columns.get(0)!.values!;
  expect([unticked.mode, [...unticked.texts].sort()]).toEqual(['except', [...texts].sort()]);
  // Select all, the search still on: every value it finds ticked again, here (taken off the list of unticked ones): no filter left.
  const calls = asked.length;
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.selectAll }));
  expect(boxes().every((b) => b.checked)).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.apply }));
  expect(asked).toHaveLength(calls);
  expect(sheetFilter(data).columns.has(0)).toBe(false);
});

test("a windowed sheet's Clear with a search finding more values than a filter may list: the dialog says so and changes nothing", async () => {
  const { askValues } = servedValues(true);
  renderInShell(<FilterDialog data={[]} column={0} label="Code" onClose={() => {}} askValues={askValues} />);
  fireEvent.change(screen.getByRole('textbox', { name: FILTER_TEXTS.search }), { target: { value: 'v' } });
  await waitFor(() => expect(screen.getByTestId('filter-more')).toBeInTheDocument());
  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clearValues }));
  expect(await screen.findByRole('alert')).toHaveTextContent(FILTER_TEXTS.tooManyValues(FILTER_TEXTS_MAX));
  expect([...screen.getByTestId('filter-values').querySelectorAll<HTMLInputElement>('input[type=checkbox]')].every((b) => b.checked)).toBe(true);
});
