import { Box, Flex, Text, chakra } from '@chakra-ui/react';
import type { SheetSummary } from '@tessera/contracts';
import { InlineRenameInput } from './InlineRenameInput.js';
import { ItemMenu } from './ItemMenu.js';
import { isEditing, type TreeActions } from './tree-actions.js';
import { isRecentlyUpdated, sheetSizeLabel } from './tree-summary.js';

export interface SheetNodeProps {
  sheet: SheetSummary;
  depth: number;
  actions: TreeActions;
}

/** A sheet row: click opens it, double-click renames it inline, its menu renames or deletes it. */
export function SheetNode({ sheet, depth, actions }: SheetNodeProps) {
  const recent = isRecentlyUpdated(sheet, actions.now);
  return (
    <Box as="li" listStyleType="none" ps={depth * 3} data-testid={`sheet-${sheet.id}`}>
      {isEditing(actions, 'sheet', sheet.id) ? (
        <InlineRenameInput
          initialName={sheet.name}
          label={`Rename ${sheet.name}`}
          onSave={(name) => actions.rename('sheet', sheet.id, name)}
          onCancel={actions.cancelRename}
        />
      ) : (
        <Flex align="center" gap="1">
          <chakra.button
            type="button"
            flex="1"
            minW="0"
            textAlign="start"
            px="2"
            py="1"
            rounded="md"
            _hover={{ bg: 'bg.muted' }}
            onClick={() => actions.openSheet(sheet.id)}
            onDoubleClick={() => actions.startRename('sheet', sheet.id)}
          >
            <Flex align="center" gap="2">
              <Text fontSize="sm" truncate flex="1">
                {sheet.name}
              </Text>
              {recent && <Box role="img" aria-label="Updated recently" boxSize="2" rounded="full" bg="green.500" flexShrink={0} />}
            </Flex>
            <Text fontSize="xs" color="fg.muted">
              {sheetSizeLabel(sheet)}
            </Text>
          </chakra.button>
          <ItemMenu
            name={sheet.name}
            onRename={() => actions.startRename('sheet', sheet.id)}
            favorite={{ isFavorite: sheet.is_favorite, onToggle: () => actions.toggleFavorite(sheet.id) }}
            onDelete={() => actions.requestDelete('sheet', sheet.id, sheet.name)}
          />
        </Flex>
      )}
    </Box>
  );
}
