import { Button, Dialog, Portal } from '@chakra-ui/react';

export interface ConfirmDeleteDialogProps {
  open: boolean;
  /** The question (spec 01 §8): 'Delete "{name}"?' or the navigator's sentence. */
  title: string;
  /** What is deleted, under the question, when the title does not name it. */
  description?: string;
  busy: boolean;
  /** The confirming button's text; 'Delete' unless told. */
  confirmLabel?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** A delete confirmation as a real alert dialog: the toolbar's and the navigator's. */
export function ConfirmDeleteDialog({ open, title, description, busy, confirmLabel = 'Delete', onConfirm, onCancel }: ConfirmDeleteDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {description !== undefined && (
              <Dialog.Body>
                <Dialog.Description>{description}</Dialog.Description>
              </Dialog.Body>
            )}
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="red" loading={busy} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
