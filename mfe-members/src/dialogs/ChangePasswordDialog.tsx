import { Alert, Button, Dialog, Field, Input, Portal, Stack } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';
import { useState, type FormEvent } from 'react';

export interface ChangePasswordDialogProps {
  open: boolean;
  /** One's own account asks for the current password too (spec 01 §2, §5). */
  own: boolean;
  username: string;
  onClose(): void;
  /** Resolves when the password changed; a rejection keeps the dialog open with the failure. */
  onSubmit(passwords: { current: string; next: string }): Promise<void>;
  /** The server's words for a failure, shown under 'Password change failed'. */
  describeFailure(error: unknown): string;
}

/** Change Password: Submit stays disabled until the required fields are filled. */
export function ChangePasswordDialog({ open, own, username, onClose, onSubmit, describeFailure }: ChangePasswordDialogProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = next.length > 0 && (!own || current.length > 0);

  const reset = () => {
    setCurrent('');
    setNext('');
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
      await onSubmit({ current, next });
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
              <Dialog.Title>Change Password</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {!own && <Dialog.Description>New password for {username}</Dialog.Description>}
                {failure !== null && (
                  <Alert.Root status="error" role="alert" size="sm">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{MESSAGES.passwordChangeFailed}</Alert.Title>
                      {failure && <Alert.Description>{failure}</Alert.Description>}
                    </Alert.Content>
                  </Alert.Root>
                )}
                {own && (
                  <Field.Root required>
                    <Field.Label>Current password</Field.Label>
                    <Input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
                  </Field.Root>
                )}
                <Field.Root required>
                  <Field.Label>New password</Field.Label>
                  <Input type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
                </Field.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={!ready || busy} loading={busy}>
                Submit
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
