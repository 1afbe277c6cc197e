import { Field, Input } from '@chakra-ui/react';
import { MESSAGES } from '@tessera/contracts';
import { useState } from 'react';
import { FormDialog } from '@tessera/ui-kit';

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
  return (
    <FormDialog
      open={open}
      title="Change Password"
      description={own ? undefined : `New password for ${username}`}
      failureTitle={MESSAGES.passwordChangeFailed}
      submitLabel="Submit"
      ready={next.length > 0 && (!own || current.length > 0)}
      onSubmit={() => onSubmit({ current, next })}
      describeFailure={describeFailure}
      onReset={() => {
        setCurrent('');
        setNext('');
      }}
      onClose={onClose}
    >
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
    </FormDialog>
  );
}
