import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RemoteName, RemoteProps } from '@tessera/contracts';
import { renderWithLoader } from '../test/render-chakra.js';
import type { RemoteComponent, RemoteLoader } from './remote-loader.js';
import { RemotePlace } from './RemotePlace.js';

function ChatPanel({ shell }: RemoteProps) {
  return <p>Chat for {shell.user.username}</p>;
}

/** A loader whose remote is down until `up` is set; retry records its calls. */
function flakyLoader() {
  const state = { up: false, loads: 0, retries: [] as RemoteName[] };
  const loader: RemoteLoader = {
    async load(): Promise<RemoteComponent> {
      state.loads++;
      if (!state.up) throw new Error('RUNTIME-003: Failed to get manifest');
      return ChatPanel;
    },
    async retry(remote) {
      state.retries.push(remote);
    },
  };
  return { loader, state };
}

beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe('remote place', () => {
  it('renders the remote component with the shell context', async () => {
    const { loader, state } = flakyLoader();
    state.up = true;
    renderWithLoader(<RemotePlace remote="mfe-chat" expose="./ChatPanel" />, loader);
    expect(await screen.findByText('Chat for alice')).toBeInTheDocument();
    expect(screen.getByTestId('remote-mfe-chat-ChatPanel')).toContainElement(screen.getByText('Chat for alice'));
  });

  it('shows the fallback card when the remote fails, and Retry loads it once it is back', async () => {
    const { loader, state } = flakyLoader();
    renderWithLoader(
      <>
        <RemotePlace remote="mfe-chat" expose="./ChatPanel" />
        <p>Rest of the page</p>
      </>,
      loader,
    );
    const card = await screen.findByTestId('remote-fallback-mfe-chat');
    expect(card).toHaveTextContent('Chat is unavailable');
    expect(screen.getByText('Rest of the page')).toBeInTheDocument();

    // Still down: Retry asks for a fresh attempt and the card comes back.
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(state.loads).toBe(2));
    expect(await screen.findByTestId('remote-fallback-mfe-chat')).toBeInTheDocument();

    state.up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Chat for alice')).toBeInTheDocument();
    expect(screen.queryByTestId('remote-fallback-mfe-chat')).not.toBeInTheDocument();
    expect(state.retries).toEqual(['mfe-chat', 'mfe-chat']);
  });

  it('a quiet place (header part) renders nothing when it fails', async () => {
    const { loader, state } = flakyLoader();
    renderWithLoader(<RemotePlace remote="mfe-chat" expose="./HeaderStatus" quiet />, loader);
    await waitFor(() => expect(state.loads).toBe(1));
    await waitFor(() => expect(console.warn).toHaveBeenCalled());
    expect(screen.getByTestId('remote-mfe-chat-HeaderStatus')).toBeEmptyDOMElement();
    expect(screen.queryByTestId('remote-fallback-mfe-chat')).not.toBeInTheDocument();
  });

  it('a Retry in one place also reloads the failed places of the same remote, not the working ones', async () => {
    const { loader, state } = flakyLoader();
    renderWithLoader(
      <>
        <RemotePlace remote="mfe-chat" expose="./ChatPanel" />
        <RemotePlace remote="mfe-chat" expose="./HeaderStatus" quiet />
      </>,
      loader,
    );
    await screen.findByTestId('remote-fallback-mfe-chat');
    await waitFor(() => expect(state.loads).toBe(2));
    state.up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByText('Chat for alice')).toHaveLength(2));
    expect(state.loads).toBe(4);
  });
});
