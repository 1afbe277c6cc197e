import { Box, EmptyState, Flex, Heading, Separator, VStack } from '@chakra-ui/react';
import type { RemoteProps } from '@tessera/contracts';
import { NavigatorSkeleton } from './NavigatorSkeleton.js';
import { useSheetTree } from './sheet-tree.store.js';
import { UserMenu } from './UserMenu.js';

/**
 * The sidebar navigator titled Sheets (spec 01 §2). The tree, its buttons, filter and
 * search come with the Sheets issue, together with the calls they need; until then the
 * workspace has no sheets and the empty state says so. The Create Group / Create Sheet
 * buttons come with their function.
 */
export default function Navigator({ shell }: RemoteProps) {
  const status = useSheetTree((s) => s.status);
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
            <EmptyState.Root size="sm">
              <EmptyState.Content>
                <VStack textAlign="center">
                  <EmptyState.Title>No Sheets Found</EmptyState.Title>
                  <EmptyState.Description>Create your first group or sheet to get started.</EmptyState.Description>
                </VStack>
              </EmptyState.Content>
            </EmptyState.Root>
          </>
        )}
      </Box>
      <Separator />
      <Box p="2">
        {/* Account Settings opens /settings, where the shell mounts mfe-members ./AccountSettings. */}
        <UserMenu user={shell.user} onAccountSettings={() => shell.navigate('/settings')} onLogout={() => void shell.logout()} />
      </Box>
    </Flex>
  );
}
