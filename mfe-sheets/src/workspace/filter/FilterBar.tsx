import { Button, Flex, Text } from '@chakra-ui/react';
import { FILTER_TEXTS, type GridData } from '@tessera/contracts';
import { useCallback, useSyncExternalStore } from 'react';
import { sheetFilter } from './sheet-filter.js';

/** Over a filtered grid: 'Showing X of Y rows' (until first counted, that it is filtering) and 'Clear filter'; nothing while no filter is on. */
export function FilterBar({ data }: { data: GridData }) {
  const filter = sheetFilter(data);
  const subscribe = useCallback((listener: () => void) => filter.subscribe(listener), [filter]);
  // One text of what is drawn, so the bar renders again only when it changes.
  const shown = useSyncExternalStore(subscribe, () => (!filter.active ? null : filter.isCounted ? FILTER_TEXTS.showing(filter.shown, filter.rows) : FILTER_TEXTS.counting));
  if (shown === null) return null;
  return (
    <Flex align="center" gap="3" px="3" py="1" bg="blue.50" borderBottomWidth="1px" fontSize="sm" data-testid="filter-bar" role="status" title={FILTER_TEXTS.personal}>
      <Text data-testid="filter-count">{shown}</Text>
      <Button size="2xs" variant="outline" onClick={() => filter.clear()}>
        {FILTER_TEXTS.clear}
      </Button>
    </Flex>
  );
}
