import { Alert, Button, Dialog, Portal, Stack } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';

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
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && close()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content as="form" onSubmit={submit}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={!ready || busy} loading={busy}>
                {submitLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
