import { Button, Dialog, Portal } from '@chakra-ui/react';
import { confirmDeleteSheet } from '@tessera/contracts';

export interface DeleteSheetDialogProps {
  open: boolean;
  name: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** The toolbar's delete confirmation: 'Delete "{name}"?' (spec 01 §8). */
export function DeleteSheetDialog({ open, name, busy, onConfirm, onCancel }: DeleteSheetDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="delete-sheet-dialog">
            <Dialog.Header>
              <Dialog.Title>{confirmDeleteSheet(name)}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="red" loading={busy} onClick={onConfirm} data-testid="confirm-delete-sheet">
                Delete
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
