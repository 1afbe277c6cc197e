import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDevShellContext, type Capabilities } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import ChatPanel from './ChatPanel.js';

const capabilities = (overrides: Partial<Capabilities> = {}): Capabilities => ({
  langGraphEnabled: false,
  hybridWorkflowSupported: false,
  threePageModeSupported: false,
  streamingSupported: false,
  gridDetectionSupported: false,
  maxRetryAttempts: 3,
  supportedFileFormats: ['csv'],
  version: '0.1.0',
  provider: 'builtin',
  ...overrides,
});

let server: Server | undefined;
/** A real ai-middleware stand-in on loopback, reached through a real axios client. */
async function startAi(status: number, body: unknown): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  server = createServer((req, res: ServerResponse) => {
    paths.push(req.url ?? '');
    res.writeHead(status, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

test('reads /config and reports streaming unavailable; Send stays disabled with the reason', async () => {
  const ai = await startAi(200, capabilities());
  renderInShell(<ChatPanel shell={createDevShellContext({ aiBaseURL: ai.url })} />);

  expect(await screen.findByText('AI service: builtin 0.1.0 • Streaming unavailable')).toBeInTheDocument();
  expect(ai.paths).toEqual(['/config']);
  const toggle = screen.getByRole('button', { name: 'Standard' });
  expect(toggle).toBeDisabled();

  await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hello{Enter}');
  const send = screen.getByRole('button', { name: 'Send' });
  expect(send).toBeDisabled();
  expect(send).toHaveAccessibleDescription(
    'Chat replies are not available in this release (AI service builtin 0.1.0).',
  );
  // Nothing pretended to be sent: the text is still there and the list is empty.
  expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('hello');
  expect(screen.getByRole('log', { name: 'Messages' })).toBeEmptyDOMElement();
});

test('with streaming supported the toggle switches between Streaming and Standard', async () => {
  const ai = await startAi(200, capabilities({ streamingSupported: true }));
  renderInShell(<ChatPanel shell={createDevShellContext({ aiBaseURL: ai.url })} />);
  await screen.findByText('AI service: builtin 0.1.0 • Streaming available');
  await userEvent.click(screen.getByRole('button', { name: 'Streaming' }));
  expect(screen.getByRole('button', { name: 'Standard' })).toHaveAttribute('aria-pressed', 'false');
  await userEvent.click(screen.getByRole('button', { name: 'Standard' }));
  expect(screen.getByRole('button', { name: 'Streaming' })).toHaveAttribute('aria-pressed', 'true');
});

test('a failing /config is reported, not hidden', async () => {
  const ai = await startAi(503, { error: { code: 'internal_error', message: 'AI service starting' } });
  renderInShell(<ChatPanel shell={createDevShellContext({ aiBaseURL: ai.url })} />);
  expect(await screen.findByText('AI service unavailable: AI service starting')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
});

test('Show/Hide Context toggles the context area with the active sheet', async () => {
  const ai = await startAi(200, capabilities());
  renderInShell(<ChatPanel shell={createDevShellContext({ aiBaseURL: ai.url, sheetId: 'sheet-7' })} />);
  expect(screen.queryByRole('region', { name: 'Chat context' })).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Show Context' }));
  expect(screen.getByRole('region', { name: 'Chat context' })).toHaveTextContent('Active Sheet: sheet-7');
  await userEvent.click(screen.getByRole('button', { name: 'Hide Context' }));
  expect(screen.queryByRole('region', { name: 'Chat context' })).not.toBeInTheDocument();
});

test('dragging the left edge resizes the panel within 320–800 px, default 384', async () => {
  const ai = await startAi(200, capabilities());
  renderInShell(<ChatPanel shell={createDevShellContext({ aiBaseURL: ai.url })} />);
  await screen.findByText(/Streaming unavailable/);
  const handle = screen.getByRole('separator', { name: 'Resize chat panel' });
  const panel = screen.getByTestId('chat-panel');
  expect(handle).toHaveAttribute('aria-valuenow', '384');

  fireEvent.mouseDown(handle, { clientX: 1000 });
  fireEvent.mouseMove(window, { clientX: 900 });
  expect(handle).toHaveAttribute('aria-valuenow', '484');
  expect(panel).toHaveStyle({ width: '484px' });
  fireEvent.mouseMove(window, { clientX: 0 });
  expect(handle).toHaveAttribute('aria-valuenow', '800');
  fireEvent.mouseMove(window, { clientX: 2000 });
  expect(handle).toHaveAttribute('aria-valuenow', '320');
  fireEvent.mouseUp(window);
  // Released: further moves no longer resize.
  fireEvent.mouseMove(window, { clientX: 500 });
  expect(handle).toHaveAttribute('aria-valuenow', '320');

  handle.focus();
  await userEvent.keyboard('{ArrowLeft}');
  expect(handle).toHaveAttribute('aria-valuenow', '336');
});
