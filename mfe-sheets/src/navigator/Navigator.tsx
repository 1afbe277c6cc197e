import { Box, Button, EmptyState, Flex, HStack, Heading, Input, Separator, Text, VStack } from '@chakra-ui/react';
import { MESSAGES, type RemoteProps } from '@tessera/contracts';
import { ConfirmDialog, steadyShell } from '@tessera/ui-kit';
import { useState } from 'react';
import { SharingDialog, type SharingTarget } from '../sharing/SharingDialog.js';
import { TrashDialog } from '../trash/TrashDialog.js';
import { FILTER_LABELS, FilterMenu, type SheetFilter } from './FilterMenu.js';
import { GroupNode } from './GroupNode.js';
import { ImportControl } from './ImportControl.js';
import { ImportStatus } from './ImportStatus.js';
import { NavigatorFooter } from './NavigatorFooter.js';
import { NavigatorSkeleton } from './NavigatorSkeleton.js';
import { RootDropZone } from './RootDropZone.js';
import { SheetList } from './SheetList.js';
import type { SheetListView } from './sheet-list.service.js';
import { SheetNode } from './SheetNode.js';
import { useSheetTree } from './sheet-tree.store.js';
import type { TreeActions } from './tree-actions.js';
import { countTree } from './tree-summary.js';
import { canAddInto } from './drag-drop.js';
import { useCreateItems } from './use-create-items.js';
import { useDeleteItem } from './use-delete-item.js';
import { useDuplicateSheet } from './use-duplicate-sheet.js';
import { useImportFile } from './use-import-file.js';
import { useInlineRename } from './use-inline-rename.js';
import { useMoveItem } from './use-move-item.js';
import { useNavigationTree } from './use-navigation-tree.js';
import { useSheetListView } from './use-sheet-list-view.js';
import { useToggleFavorite } from './use-toggle-favorite.js';
import { UserMenu } from './UserMenu.js';

/** Spec 01 §8 navigation error texts. */
export const LOAD_NAVIGATION_FAILED = 'Failed to load navigation data';
export const SEARCH_FAILED = 'Search failed';
/** Spec 01 §2: the search box's placeholder. */
export const SEARCH_PLACEHOLDER = 'Search sheets...';
/** How long a search waits after the last keystroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

export interface NavigatorProps extends RemoteProps {
  /** Waits between load attempts; the shell leaves the spec's 1 s then 2 s, tests shorten them. */
  retryDelaysMs?: readonly number[];
  /** Wait after the last keystroke of a search; tests set 0 to see every request. */
  searchDebounceMs?: number;
}

/** The flat view the filter and the search box ask for; null shows the tree. A search goes over all sheets. */
function listViewOf(filter: SheetFilter, search: string): SheetListView | null {
  const text = search.trim();
  if (text !== '') return { kind: 'search', text };
  return filter === 'all' ? null : { kind: filter };
}

/**
 * The sidebar navigator titled Sheets (spec 01 §2): Add Folder / Add Sheet / Import, the
 * filter menu and the search box, the tree of groups and sheets (or a filter's or search's
 * flat list) with inline rename, the overflow menus and drag and drop, the footer counts and
 * the user menu.
 */
function Navigator({ shell, retryDelaysMs, searchDebounceMs = SEARCH_DEBOUNCE_MS }: NavigatorProps) {
  const { status, tree } = useSheetTree();
  const reload = useNavigationTree(shell, retryDelaysMs);
  const creating = useCreateItems(shell, reload);
  const renaming = useInlineRename(shell, reload);
  const deleting = useDeleteItem(shell, tree, reload);
  const favorites = useToggleFavorite(shell, reload);
  const duplicating = useDuplicateSheet(shell);
  const moving = useMoveItem(shell, tree, reload);
  const importing = useImportFile(shell);
  const [filter, setFilter] = useState<SheetFilter>('all');
  const [search, setSearch] = useState('');
  const view = listViewOf(filter, search);
  const list = useSheetListView(shell.api, view, tree, searchDebounceMs);
  const [sharing, setSharing] = useState<SharingTarget | null>(null);
  const [trashOpen, setTrashOpen] = useState(false);
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
    duplicateSheet: duplicating.duplicate,
    requestDelete: (type, id, name) => deleting.request({ type, id, name }),
    share: (type, id, name) => setSharing({ type, id, name }),
    drag: moving,
  };
  // Add and Import put things at root level: offered only where the user may edit there (issue 18).
  const rootEditable = canAddInto(tree, null);
  const counts = countTree(tree);
  const empty = counts.sheets === 0 && counts.groups === 0;
  const actionError = creating.error ?? renaming.error ?? deleting.error ?? favorites.error ?? duplicating.error ?? moving.error;

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
              <>
                <HStack gap="2" mb="2" wrap="wrap">
                  <Button size="xs" variant="outline" disabled={!!creating.busy || !rootEditable} onClick={() => void creating.create('group')}>
                    Add Folder
                  </Button>
                  <Button size="xs" variant="outline" disabled={!!creating.busy || !rootEditable} onClick={() => void creating.create('sheet')}>
                    Add Sheet
                  </Button>
                  {rootEditable && <ImportControl busy={importing.progress.phase !== 'idle'} onFile={importing.start} />}
                </HStack>
                <HStack gap="2" mb="2">
                  <FilterMenu value={filter} onChange={setFilter} />
                  <Input
                    size="xs"
                    type="search"
                    placeholder={SEARCH_PLACEHOLDER}
                    aria-label={SEARCH_PLACEHOLDER}
                    value={search}
                    onChange={(event) => setSearch(event.target.value)}
                  />
                </HStack>
                <ImportStatus progress={importing.progress} error={importing.error} onDismissError={importing.dismissError} />
              </>
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
            ) : view && list ? (
              <SheetList
                label={view.kind === 'search' ? 'Search results' : FILTER_LABELS[view.kind]}
                state={list}
                errorText={view.kind === 'search' ? SEARCH_FAILED : LOAD_NAVIGATION_FAILED}
                actions={actions}
              />
            ) : empty ? (
              <EmptyState.Root size="sm">
                <EmptyState.Content>
                  <VStack textAlign="center">
                    <EmptyState.Title>No Sheets Found</EmptyState.Title>
                    <EmptyState.Description>Create your first group or sheet to get started.</EmptyState.Description>
                  </VStack>
                  <HStack>
                    <Button size="sm" disabled={!!creating.busy || !rootEditable} onClick={() => void creating.create('group')}>
                      {creating.busy === 'group' ? 'Creating...' : 'Create Group'}
                    </Button>
                    <Button size="sm" disabled={!!creating.busy || !rootEditable} onClick={() => void creating.create('sheet')}>
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
            {/* At the end, so that nothing above moves under the pointer when it appears. */}
            {moving.dragging && <RootDropZone drag={moving} />}
          </>
        )}
      </Box>
      {status === 'ready' && <NavigatorFooter sheets={counts.sheets} groups={counts.groups} imported={importing.counts} />}
      <ConfirmDialog
        open={deleting.pending !== null}
        title={MESSAGES.confirmDeleteItem}
        description={deleting.pending?.name}
        confirmLabel="Delete"
        busy={deleting.busy}
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
      <SharingDialog shell={shell} target={sharing} onClose={() => setSharing(null)} />
      <TrashDialog shell={shell} open={trashOpen} onClose={() => setTrashOpen(false)} onRestored={() => void reload()} />
      <Separator />
      {/* Issue 18: what was deleted waits here (restore, or delete forever for owners). */}
      <Box px="2" pt="2">
        <Button size="xs" variant="ghost" width="full" justifyContent="flex-start" data-testid="open-trash" onClick={() => setTrashOpen(true)}>
          Trash
        </Button>
      </Box>
      <Box p="2">
        {/* Account Settings opens /settings, where the shell mounts mfe-members ./AccountSettings. */}
        <UserMenu user={shell.user} onAccountSettings={() => shell.navigate('/settings')} onLogout={() => void shell.logout()} />
      </Box>
    </Flex>
  );
}

/** Of the shell the navigator shows only the user (the menu at its foot): a selection moving or an edit acknowledged does not render its tree again. */
export default steadyShell(Navigator, (shell) => [shell.user]);
