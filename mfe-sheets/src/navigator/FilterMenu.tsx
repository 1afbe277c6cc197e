import { Button, Menu, Portal } from '@chakra-ui/react';

export type SheetFilter = 'all' | 'favorites' | 'recent';

/** Spec 01 §2: the filter menu's items. */
export const FILTER_LABELS: Record<SheetFilter, string> = {
  all: 'All Sheets',
  favorites: 'Favorites',
  recent: 'Recent',
};

export interface FilterMenuProps {
  value: SheetFilter;
  onChange(filter: SheetFilter): void;
}

/** All Sheets (the tree), Favorites or Recent (flat lists); the trigger shows the current one. */
export function FilterMenu({ value, onChange }: FilterMenuProps) {
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <Button size="xs" variant="outline" aria-label={`Filter: ${FILTER_LABELS[value]}`} flexShrink={0}>
          {FILTER_LABELS[value]} ▾
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.RadioItemGroup value={value} onValueChange={({ value: next }) => onChange(next as SheetFilter)}>
              {(Object.keys(FILTER_LABELS) as SheetFilter[]).map((filter) => (
                <Menu.RadioItem key={filter} value={filter}>
                  {FILTER_LABELS[filter]}
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
