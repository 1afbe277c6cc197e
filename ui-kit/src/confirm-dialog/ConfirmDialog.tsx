import { Button, Dialog, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { DialogFrame } from '../dialog-frame/DialogFrame.js';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. 'Delete user?' or 'Restore version 3?'. */
  title: ReactNode;
  /** What the question is about, under it; the dialog has no body when neither this nor an error is given. */
  description?: ReactNode;
  /** Why the last attempt failed, shown in the dialog so that the user can try again or cancel. */
  error?: string | null;
  /** The confirming button's text ('Delete', 'Revoke', 'Restore'). */
  confirmLabel: string;
  /** `danger` (red, the default): the action destroys something; `primary` (blue) otherwise. */
  tone?: 'danger' | 'primary';
  /** The request is under way: the confirming button spins. */
  busy?: boolean;
  onConfirm(): void;
  /** Cancel, Escape and a click outside. */
  onCancel(): void;
  /** data-testid of the dialog's content. */
  testId?: string;
  /** data-testid of the error text. */
  errorTestId?: string;
}

/** A confirmation as a real alert dialog (not a browser confirm(), which stops the whole page). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, description, error = null, confirmLabel, tone = 'danger', busy = false, onConfirm, onCancel, testId, errorTestId } = props;
  return (
    <DialogFrame
      open={open}
      onClose={onCancel}
      role="alertdialog"
      title={title}
      contentProps={{ 'data-testid': testId }}
      footer={
        <>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button colorPalette={tone === 'danger' ? 'red' : 'blue'} loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {description !== undefined || error !== null ? (
        <>
          {description !== undefined && <Dialog.Description>{description}</Dialog.Description>}
          {error !== null && (
            <Text mt="2" color="fg.error" role="alert" data-testid={errorTestId}>
              {error}
            </Text>
          )}
        </>
      ) : null}
    </DialogFrame>
  );
}
