import { Box, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { userDisplayName, userSubtitle, type UserLabelSource } from './user-label.js';

export interface UserMenuProps {
  user: UserLabelSource;
  /** Without it the menu has no Account Settings item (no settings screen to open). */
  onAccountSettings?(): void;
  onLogout(): void;
}

/** The user menu at the foot of the navigator: who is signed in, Account Settings, Log out. */
export function UserMenu({ user, onAccountSettings, onLogout }: UserMenuProps) {
  return (
    <Menu.Root
      positioning={{ placement: 'top-start' }}
      onSelect={({ value }) => (value === 'logout' ? onLogout() : onAccountSettings?.())}
    >
      <Menu.Trigger asChild>
        <Button variant="ghost" width="full" justifyContent="flex-start" height="auto" py="2" aria-label="User menu">
          <Box textAlign="start" minW="0">
            <Text fontWeight="medium" truncate>
              {userDisplayName(user)}
            </Text>
            <Text fontSize="xs" color="fg.muted" truncate>
              {userSubtitle(user)}
            </Text>
          </Box>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {onAccountSettings && <Menu.Item value="account-settings">Account Settings</Menu.Item>}
            <Menu.Item value="logout">Log out</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
