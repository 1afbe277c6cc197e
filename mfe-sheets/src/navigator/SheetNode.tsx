import { Box, Flex, Text } from '@chakra-ui/react';
import { CATEGORY_ICONS, categoryColor, type SheetSummary } from '@tessera/contracts';
import { can } from '../access/can.js';
import type { DragItem } from './drag-drop.js';
import { ItemMenu } from './ItemMenu.js';
import type { TreeActions } from './tree-actions.js';
import { TreeRow } from './TreeRow.js';
import { isRecentlyUpdated, sheetSizeLabel } from './tree-summary.js';

export interface SheetNodeProps {
  sheet: SheetSummary;
  depth: number;
  actions: TreeActions;
}

/** A sheet row: click opens it, double-click renames it inline, its menu renames, favorites, duplicates, moves or deletes it. */
export function SheetNode({ sheet, depth, actions }: SheetNodeProps) {
  const recent = isRecentlyUpdated(sheet, actions.now);
  const item: DragItem = { type: 'sheet', id: sheet.id, parentId: sheet.group_id };
  return (
    <Box as="li" listStyleType="none" ps={depth * 3} data-testid={`sheet-${sheet.id}`}>
      <TreeRow
        type="sheet"
        id={sheet.id}
        name={sheet.name}
        parentId={sheet.group_id}
        actions={actions}
        editable={can(sheet.access, 'edit')}
        onActivate={() => actions.openSheet(sheet.id)}
        menu={
          <ItemMenu
            name={sheet.name}
            access={sheet.access}
            onShare={() => actions.share('sheet', sheet.id, sheet.name)}
            onRename={() => actions.startRename('sheet', sheet.id)}
            favorite={{ isFavorite: sheet.is_favorite, onToggle: () => actions.toggleFavorite(sheet.id) }}
            onDuplicate={() => actions.duplicateSheet(sheet.id)}
            onDelete={() => actions.requestDelete('sheet', sheet.id, sheet.name)}
            moveTo={{
              targets: () => actions.drag.targets(item),
              onMove: (target) => actions.drag.moveTo(item, target),
            }}
          />
        }
      >
        <Flex align="center" gap="2">
          <CategoryIcon category={sheet.metadata.category} />
          <Text fontSize="sm" truncate flex="1">
            {sheet.name}
          </Text>
          {recent && <Box role="img" aria-label="Updated recently" boxSize="2" rounded="full" bg="green.500" flexShrink={0} />}
        </Flex>
        <Text fontSize="xs" color="fg.muted">
          {sheetSizeLabel(sheet)}
        </Text>
      </TreeRow>
    </Box>
  );
}

/**
 * The sheet's category as its icon on a tint of the category's colour (spec 01 §9), its name on
 * hover. Hidden from screen readers: the row's accessible name stays the sheet's name.
 */
function CategoryIcon({ category }: { category: SheetSummary['metadata']['category'] }) {
  const color = categoryColor(category);
  return (
    <Box
      as="span"
      aria-hidden
      title={category}
      data-category-color={color}
      display="inline-flex"
      alignItems="center"
      justifyContent="center"
      boxSize="5"
      rounded="sm"
      fontSize="xs"
      flexShrink={0}
      bg={`${color}.subtle`}
      borderWidth="1px"
      borderColor={`${color}.muted`}
    >
      {CATEGORY_ICONS[category]}
    </Box>
  );
}
