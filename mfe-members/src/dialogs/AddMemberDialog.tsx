import { Field, Input, NativeSelect } from '@chakra-ui/react';
import { CREATABLE_ROLES, type CreateUserBody, MESSAGES } from '@tessera/contracts';
import { useState } from 'react';
import { FormDialog } from '@tessera/ui-kit';

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
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <FormDialog
      open={open}
      title="Add Member"
      failureTitle={MESSAGES.createFailed}
      submitLabel="Create"
      ready={form.username.trim().length > 0 && form.password.length > 0}
      onSubmit={() =>
        onCreate({
          username: form.username.trim(),
          password: form.password,
          role: form.role,
          ...(form.email.trim() ? { email: form.email.trim() } : {}),
          ...(form.nickname.trim() ? { nickname: form.nickname.trim() } : {}),
        })
      }
      describeFailure={describeFailure}
      onReset={() => setForm(EMPTY)}
      onClose={onClose}
    >
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
    </FormDialog>
  );
}
