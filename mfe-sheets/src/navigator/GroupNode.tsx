import { Badge, Box, Flex, Text } from '@chakra-ui/react';
import type { GroupTreeNode } from '@tessera/contracts';
import { useState } from 'react';
import { can } from '../access/can.js';
import type { DragItem } from './drag-drop.js';
import { ItemMenu } from './ItemMenu.js';
import { SheetNode } from './SheetNode.js';
import type { TreeActions } from './tree-actions.js';
import { TreeRow } from './TreeRow.js';
import { groupBadgeLabel } from './tree-summary.js';

export interface GroupNodeProps {
  node: GroupTreeNode;
  depth: number;
  actions: TreeActions;
}

/**
 * A group row with its count badge; click expands or collapses it, double-click renames it,
 * its menu renames or deletes it or adds inside it; rows dragged onto it move into it.
 */
export function GroupNode({ node, depth, actions }: GroupNodeProps) {
  const [expanded, setExpanded] = useState(true);
  const { group } = node;
  const item: DragItem = { type: 'group', id: group.id, parentId: group.parent_id };
  return (
    <Box as="li" listStyleType="none" data-testid={`group-${group.id}`}>
      <Box ps={depth * 3}>
        <TreeRow
          type="group"
          id={group.id}
          name={group.name}
          parentId={group.parent_id}
          actions={actions}
          expanded={expanded}
          editable={can(group.access, 'edit')}
          onActivate={() => setExpanded((open) => !open)}
          menu={
            <ItemMenu
              name={group.name}
              access={group.access}
              onShare={() => actions.share('group', group.id, group.name)}
              onRename={() => actions.startRename('group', group.id)}
              onAddGroup={() => actions.addInGroup('group', group.id)}
              onAddSheet={() => actions.addInGroup('sheet', group.id)}
              onDelete={() => actions.requestDelete('group', group.id, group.name)}
              moveTo={{
                targets: () => actions.drag.targets(item),
                onMove: (target) => actions.drag.moveTo(item, target),
              }}
            />
          }
        >
          <Flex align="center" gap="2">
            <Text aria-hidden fontSize="xs" color="fg.muted">
              {expanded ? '▾' : '▸'}
            </Text>
            <Text fontSize="sm" fontWeight="medium" truncate flex="1">
              {group.name}
            </Text>
            <Badge size="sm" data-testid="group-badge">
              {groupBadgeLabel(node)}
            </Badge>
          </Flex>
        </TreeRow>
      </Box>
      {expanded && (
        <Box as="ul" m="0" p="0">
          {node.children.map((child) => (
            <GroupNode key={child.group.id} node={child} depth={depth + 1} actions={actions} />
          ))}
          {node.sheets.map((sheet) => (
            <SheetNode key={sheet.id} sheet={sheet} depth={depth + 1} actions={actions} />
          ))}
        </Box>
      )}
    </Box>
  );
}
