import { Alert, Button, Dialog, Stack } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { DialogFrame } from '../dialog-frame/DialogFrame.js';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** Shown above the fields. */
  description?: ReactNode;
  /** The spec's text for a failure ('Create failed', 'Password change failed'); the server's words go under it. */
  failureTitle: string;
  submitLabel: string;
  /** The submit button stays disabled until the required fields are filled. */
  ready: boolean;
  /** Sends the form; a rejection keeps the dialog open with the failure. */
  onSubmit(): Promise<void>;
  describeFailure(error: unknown): string;
  /** Empties the form's fields: after a success and on close. */
  onReset(): void;
  onClose(): void;
  children: ReactNode;
}

/** A form in a dialog: fields, a failure alert, Cancel and a submit button that waits for the request. */
export function FormDialog(props: FormDialogProps) {
  const { open, title, description, failureTitle, submitLabel, ready, onSubmit, describeFailure, onReset, onClose, children } = props;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const reset = () => {
    onReset();
    setFailure(null);
    setBusy(false);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit();
      reset();
    } catch (error) {
      setFailure(describeFailure(error));
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      open={open}
      onClose={close}
      title={title}
      contentProps={{ as: 'form', onSubmit: submit }}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready || busy} loading={busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <Stack gap="3">
        {description && <Dialog.Description>{description}</Dialog.Description>}
        {failure !== null && (
          <Alert.Root status="error" role="alert" size="sm">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{failureTitle}</Alert.Title>
              {failure && <Alert.Description>{failure}</Alert.Description>}
            </Alert.Content>
          </Alert.Root>
        )}
        {children}
      </Stack>
    </DialogFrame>
  );
}
