import { act, fireEvent, screen } from '@testing-library/react';
import { FILTER_TEXTS, type GridData } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { FilterBar } from './FilterBar.js';
import { sheetFilter } from './sheet-filter.js';

test("the bar says it is filtering until the rows are first counted (a windowed sheet's count comes from the api), then the count; Clear filter hides it", () => {
  const data: GridData = [['a'], ['b']];
  const filter = sheetFilter(data);
  renderInShell(<FilterBar data={data} />);
  expect(screen.queryByTestId('filter-bar')).toBeNull();

  act(() => filter.set(0, { values: { mode: 'only', texts: new Set(['a']) }, condition: null }));
  // Not 'Showing 0 of 0 rows' while the answer is on its way.
  expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.counting);
  act(() => filter.counted(1, 2));
  expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.showing(1, 2));

  fireEvent.click(screen.getByRole('button', { name: FILTER_TEXTS.clear }));
  expect(screen.queryByTestId('filter-bar')).toBeNull();
  // A new filter is counted anew: the last one's count is not shown for it.
  act(() => filter.set(0, { values: { mode: 'only', texts: new Set(['b']) }, condition: null }));
  expect(screen.getByTestId('filter-count')).toHaveTextContent(FILTER_TEXTS.counting);
});
