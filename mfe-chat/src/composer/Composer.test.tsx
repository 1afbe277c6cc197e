import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInShell } from '@tessera/jest-react';
import { Composer, type ComposerSend } from './Composer.js';

function setup(initialMode?: 'chat' | 'agent-direct' | 'agent-ai') {
  const sent: ComposerSend[] = [];
  renderInShell(<Composer onSend={(m) => sent.push(m)} initialMode={initialMode} />);
  return { sent, input: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

test('Enter sends the message and clears the input', async () => {
  const { sent, input } = setup();
  await userEvent.type(input, 'total of column B{Enter}');
  expect(sent).toEqual([{ prompt: 'total of column B', mode: 'chat' }]);
  expect(input).toHaveValue('');
});

test('Shift+Enter adds a line break and sends nothing', async () => {
  const { sent, input } = setup();
  await userEvent.type(input, 'first{Shift>}{Enter}{/Shift}second');
  expect(input).toHaveValue('first\nsecond');
  expect(sent).toEqual([]);
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  expect(sent).toEqual([{ prompt: 'first\nsecond', mode: 'chat' }]);
});

test('in Chat mode an empty prompt cannot be sent', async () => {
  const { sent, input } = setup('chat');
  expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  await userEvent.type(input, '   {Enter}');
  expect(sent).toEqual([]);
  expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
});

test('in an agent mode an empty prompt sends the mode default', async () => {
  const { sent, input } = setup();
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Mode' }), 'Agent • Direct Exec');
  expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  await userEvent.type(input, '{Enter}');
  expect(sent).toEqual([{ prompt: 'Execute the code directly', mode: 'agent-direct' }]);
});

test('the mode selector offers the three modes of the spec', () => {
  setup();
  const options = screen.getAllByRole('option').map((o) => o.textContent);
  expect(options).toEqual(['Agent • Direct Exec', 'Agent • AI Powered', 'Chat']);
});

test('without a destination Send stays disabled and says why', async () => {
  renderInShell(<Composer unavailable="No chat service in this build." />);
  const send = screen.getByRole('button', { name: 'Send' });
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello');
  expect(send).toBeDisabled();
  expect(send).toHaveAccessibleDescription('No chat service in this build.');
});

test('while a reply streams the button reads Stop and stops it; Enter sends nothing', async () => {
  const sent: ComposerSend[] = [];
  let stops = 0;
  renderInShell(<Composer onSend={(m) => sent.push(m)} busy onStop={() => stops++} />);
  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'next question{Enter}');
  expect(sent).toEqual([]);
  expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
  expect(stops).toBe(1);
});

test('the input grows with its text up to 120 px, then scrolls', () => {
  renderInShell(<Composer onSend={() => {}} />);
  expect(screen.getByRole('textbox', { name: 'Message' })).toHaveStyle({ maxHeight: '120px', overflowY: 'auto' });
});
