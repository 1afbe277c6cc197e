import { Box, Button, EmptyState, Flex, HStack, Heading, Separator, Text, VStack } from '@chakra-ui/react';
import type { RemoteProps } from '@tessera/contracts';
import { useState } from 'react';
import { DeleteItemDialog } from './DeleteItemDialog.js';
import { GroupNode } from './GroupNode.js';
import { NavigatorSkeleton } from './NavigatorSkeleton.js';
import { SheetNode } from './SheetNode.js';
import { useSheetTree } from './sheet-tree.store.js';
import type { TreeActions } from './tree-actions.js';
import { countTree } from './tree-summary.js';
import { useCreateItems } from './use-create-items.js';
import { useDeleteItem } from './use-delete-item.js';
import { useInlineRename } from './use-inline-rename.js';
import { useNavigationTree } from './use-navigation-tree.js';
import { useToggleFavorite } from './use-toggle-favorite.js';
import { UserMenu } from './UserMenu.js';

/** Spec 01 §8 navigation error text. */
export const LOAD_NAVIGATION_FAILED = 'Failed to load navigation data';

export interface NavigatorProps extends RemoteProps {
  /** Waits between load attempts; the shell leaves the spec's 1 s then 2 s, tests shorten them. */
  retryDelaysMs?: readonly number[];
}

/**
 * The sidebar navigator titled Sheets (spec 01 §2): the tree of groups and sheets with
 * Add Folder / Add Sheet, inline rename and the overflow menus. Filter, search, import and
 * drag and drop come later, with their calls.
 */
export default function Navigator({ shell, retryDelaysMs }: NavigatorProps) {
  const { status, tree } = useSheetTree();
  const reload = useNavigationTree(shell, retryDelaysMs);
  const creating = useCreateItems(shell, reload);
  const renaming = useInlineRename(shell, reload);
  const deleting = useDeleteItem(shell, tree, reload);
  const favorites = useToggleFavorite(shell, reload);
  // Measured once per mount: the dots need not change while the navigator stays open.
  const [now] = useState(() => Date.now());

  const actions: TreeActions = {
    editing: renaming.editing,
    now,
    openSheet: (id) => shell.sheet.open(id),
    startRename: renaming.startRename,
    rename: renaming.rename,
    cancelRename: renaming.cancelRename,
    addInGroup: (kind, groupId) => void creating.create(kind, groupId),
    toggleFavorite: favorites.toggle,
    requestDelete: (type, id, name) => deleting.request({ type, id, name }),
  };
  const counts = countTree(tree);
  const empty = counts.sheets === 0 && counts.groups === 0;
  const actionError = creating.error ?? renaming.error ?? deleting.error ?? favorites.error;

  return (
    <Flex as="nav" aria-label="Sheets" direction="column" height="full" minH="0">
      <Box flex="1" overflowY="auto" p="3">
        {status === 'loading' ? (
          <NavigatorSkeleton />
        ) : (
          <>
            <Heading size="sm" mb="2">
              Sheets
            </Heading>
            {status === 'ready' && (
              <HStack gap="2" mb="2">
                <Button size="xs" variant="outline" disabled={!!creating.busy} onClick={() => void creating.create('group')}>
                  Add Folder
                </Button>
                <Button size="xs" variant="outline" disabled={!!creating.busy} onClick={() => void creating.create('sheet')}>
                  Add Sheet
                </Button>
              </HStack>
            )}
            {actionError && (
              <Text role="alert" color="fg.error" fontSize="sm" mb="2">
                {actionError}
              </Text>
            )}
            {status === 'error' ? (
              <Text role="alert" color="fg.error" fontSize="sm">
                {LOAD_NAVIGATION_FAILED}
              </Text>
            ) : empty ? (
              <EmptyState.Root size="sm">
                <EmptyState.Content>
                  <VStack textAlign="center">
                    <EmptyState.Title>No Sheets Found</EmptyState.Title>
                    <EmptyState.Description>Create your first group or sheet to get started.</EmptyState.Description>
                  </VStack>
                  <HStack>
                    <Button size="sm" disabled={!!creating.busy} onClick={() => void creating.create('group')}>
                      {creating.busy === 'group' ? 'Creating...' : 'Create Group'}
                    </Button>
                    <Button size="sm" disabled={!!creating.busy} onClick={() => void creating.create('sheet')}>
                      {creating.busy === 'sheet' ? 'Creating...' : 'Create Sheet'}
                    </Button>
                  </HStack>
                </EmptyState.Content>
              </EmptyState.Root>
            ) : (
              <Box as="ul" m="0" p="0" aria-label="Sheet tree">
                {tree.groups.map((node) => (
                  <GroupNode key={node.group.id} node={node} depth={0} actions={actions} />
                ))}
                {tree.sheets.map((sheet) => (
                  <SheetNode key={sheet.id} sheet={sheet} depth={0} actions={actions} />
                ))}
              </Box>
            )}
          </>
        )}
      </Box>
      {status === 'ready' && (
        <Text px="3" py="1" fontSize="xs" color="fg.muted" data-testid="navigator-footer">
          {counts.sheets} sheets • {counts.groups} groups
        </Text>
      )}
      <DeleteItemDialog name={deleting.pending?.name ?? null} busy={deleting.busy} onConfirm={deleting.confirm} onCancel={deleting.cancel} />
      <Separator />
      <Box p="2">
        {/* Account Settings opens /settings, where the shell mounts mfe-members ./AccountSettings. */}
        <UserMenu user={shell.user} onAccountSettings={() => shell.navigate('/settings')} onLogout={() => void shell.logout()} />
      </Box>
    </Flex>
  );
}
