import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { TIMELINE_TEXTS, confirmRestoreSnapshot, confirmRestoreSnapshotDetail } from '@tessera/contracts';

export interface ConfirmRestoreDialogProps {
  /** The version to restore; null: the dialog is closed. */
  version: number | null;
  busy: boolean;
  /** Why the last attempt failed, shown in the dialog so that the user can try again or cancel. */
  error: string | null;
  onConfirm(): void;
  onCancel(): void;
}

/** The restore confirmation as a real alert dialog, in the pattern of confirm-delete/ConfirmDeleteDialog. */
export function ConfirmRestoreDialog({ version, busy, error, onConfirm, onCancel }: ConfirmRestoreDialogProps) {
  return (
    <Dialog.Root open={version !== null} onOpenChange={(e) => !e.open && onCancel()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="timeline-restore-dialog">
            <Dialog.Header>
              <Dialog.Title>{version !== null ? confirmRestoreSnapshot(version) : ''}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{confirmRestoreSnapshotDetail}</Dialog.Description>
              {error !== null && (
                <Text mt="2" color="fg.error" role="alert" data-testid="timeline-restore-error">
                  {error}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette="blue" loading={busy} onClick={onConfirm}>
                {TIMELINE_TEXTS.restore}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
