import { Button, Dialog, Portal } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';

/** The confirmation before a delete: 'Delete user?' (spec 01 §7, §8), as a real dialog. */
export function ConfirmDeleteDialog({ username, onConfirm, onCancel }: { username: string | null; onConfirm(): void; onCancel(): void }) {
  return (
    <Dialog.Root open={username !== null} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{MESSAGES.confirmDeleteUser}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{username}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={onConfirm}>
                Delete
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
