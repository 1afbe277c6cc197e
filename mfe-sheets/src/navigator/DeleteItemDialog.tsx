import { Button, Dialog, Portal } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';

export interface DeleteItemDialogProps {
  /** Name of the group or sheet to delete; null closes the dialog. */
  name: string | null;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** The navigator's delete confirmation (spec 01 §8), as a real dialog. */
export function DeleteItemDialog({ name, busy, onConfirm, onCancel }: DeleteItemDialogProps) {
  return (
    <Dialog.Root open={name !== null} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{MESSAGES.confirmDeleteItem}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{name}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="red" loading={busy} onClick={onConfirm}>
                Delete
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
