import { Input } from '@chakra-ui/react';
import { renderInShell } from '@tessera/jest-react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { FormDialog } from './FormDialog.js';

/** A one-field form as the members' dialogs use it: the submit waits for `send`. */
function NameForm({ send, onClose = () => {} }: { send(name: string): Promise<void>; onClose?(): void }) {
  const [name, setName] = useState('');
  return (
    <FormDialog
      open
      title="Add Member"
      failureTitle="Create failed"
      submitLabel="Create"
      ready={name.length > 0}
      onSubmit={() => send(name)}
      describeFailure={(e) => (e instanceof Error ? e.message : '')}
      onReset={() => setName('')}
      onClose={onClose}
    >
      <Input aria-label="Username" value={name} onChange={(e) => setName(e.target.value)} />
    </FormDialog>
  );
}

test('submit stays off until the form is ready; a failure keeps the dialog open under the spec text, with the server words', async () => {
  const user = userEvent.setup();
  const sent: string[] = [];
  renderInShell(
    <NameForm
      send={async (name) => {
        sent.push(name);
        throw new Error('Username already taken');
      }}
    />,
  );
  const create = await screen.findByRole('button', { name: 'Create' });
  expect(create).toBeDisabled();
  await user.type(screen.getByLabelText('Username'), 'bob');
  await user.click(create);
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Create failed');
  expect(alert).toHaveTextContent('Username already taken');
  expect(sent).toEqual(['bob']);
  expect(screen.getByLabelText('Username')).toHaveValue('bob');
});

test('a success empties the form; Cancel closes and empties it too', async () => {
  const user = userEvent.setup();
  const closed: string[] = [];
  renderInShell(<NameForm send={async () => {}} onClose={() => closed.push('closed')} />);
  await user.type(await screen.findByLabelText('Username'), 'bob');
  await user.click(screen.getByRole('button', { name: 'Create' }));
  expect(await screen.findByLabelText('Username')).toHaveValue('');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  await user.type(screen.getByLabelText('Username'), 'carol');
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(closed).toEqual(['closed']);
  expect(screen.getByLabelText('Username')).toHaveValue('');
});
