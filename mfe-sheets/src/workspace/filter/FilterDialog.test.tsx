import { fireEvent, screen, waitFor } from '@testing-library/react';
import { FILTER_TEXTS, FILTER_VALUES_SHOWN, type GridData } from '@tessera/contracts';
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
