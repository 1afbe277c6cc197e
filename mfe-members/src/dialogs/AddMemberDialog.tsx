import { Alert, Button, Dialog, Field, Input, NativeSelect, Portal, Stack } from '@chakra-ui/react';
import { CREATABLE_ROLES, type CreateUserBody, MESSAGES } from '@tessera/contracts';
import { useState, type FormEvent } from 'react';

export interface AddMemberDialogProps {
  open: boolean;
  onClose(): void;
  /** Resolves when the member exists; a rejection keeps the dialog open with 'Create failed'. */
  onCreate(body: CreateUserBody): Promise<void>;
  describeFailure(error: unknown): string;
}

const ROLE_LABELS: Record<(typeof CREATABLE_ROLES)[number], string> = { user: 'User', admin: 'Admin' };
const EMPTY = { username: '', password: '', email: '', nickname: '', role: 'user' as CreateUserBody['role'] };

/** Add Member (spec 01 §2): Create stays disabled until username and password are filled. */
export function AddMemberDialog({ open, onClose, onCreate, describeFailure }: AddMemberDialogProps) {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = form.username.trim().length > 0 && form.password.length > 0;
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const close = () => {
    setForm(EMPTY);
    setFailure(null);
    setBusy(false);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await onCreate({
        username: form.username.trim(),
        password: form.password,
        role: form.role,
        ...(form.email.trim() ? { email: form.email.trim() } : {}),
        ...(form.nickname.trim() ? { nickname: form.nickname.trim() } : {}),
      });
      setForm(EMPTY);
      setBusy(false);
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
              <Dialog.Title>Add Member</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {failure !== null && (
                  <Alert.Root status="error" role="alert" size="sm">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{MESSAGES.createFailed}</Alert.Title>
                      {failure && <Alert.Description>{failure}</Alert.Description>}
                    </Alert.Content>
                  </Alert.Root>
                )}
                <Field.Root required>
                  <Field.Label>Username</Field.Label>
                  <Input autoComplete="off" value={form.username} onChange={set('username')} />
                </Field.Root>
                <Field.Root required>
                  <Field.Label>Password</Field.Label>
                  <Input type="password" autoComplete="new-password" value={form.password} onChange={set('password')} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>Email</Field.Label>
                  <Input type="email" value={form.email} onChange={set('email')} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>Nickname</Field.Label>
                  <Input value={form.nickname} onChange={set('nickname')} />
                </Field.Root>
                <Field.Root>
                  <Field.Label>Role</Field.Label>
                  <NativeSelect.Root>
                    <NativeSelect.Field value={form.role} onChange={set('role')}>
                      {CREATABLE_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={!ready || busy} loading={busy}>
                Create
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
