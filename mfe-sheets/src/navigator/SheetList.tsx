import { Box, Spinner, Text } from '@chakra-ui/react';
import { SheetNode } from './SheetNode.js';
import type { TreeActions } from './tree-actions.js';
import type { SheetListViewState } from './use-sheet-list-view.js';

export interface SheetListProps {
  label: string;
  state: SheetListViewState;
  /** The text shown when the list could not be loaded. */
  errorText: string;
  actions: TreeActions;
}

/** A filter's or a search's sheets, flat, with the same rows and menus as in the tree. */
export function SheetList({ label, state, errorText, actions }: SheetListProps) {
  if (state.status === 'error') {
    return (
      <Box role="alert" color="fg.error" fontSize="sm">
        <Text>{errorText}</Text>
        {state.error ? (
          <Text fontSize="xs" color="fg.muted">
            {state.error}
          </Text>
        ) : null}
      </Box>
    );
  }
  if (state.status === 'loading' && state.sheets.length === 0) {
    return <Spinner size="sm" aria-label={`Loading ${label}`} />;
  }
  if (state.sheets.length === 0) {
    return (
      <Text fontSize="sm" color="fg.muted">
        No Sheets Found
      </Text>
    );
  }
  return (
    <Box as="ul" m="0" p="0" aria-label={label} aria-busy={state.status === 'loading'}>
      {state.sheets.map((sheet) => (
        <SheetNode key={sheet.id} sheet={sheet} depth={0} actions={actions} />
      ))}
    </Box>
  );
}
