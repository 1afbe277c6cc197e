import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderInShell } from '@tessera/jest-react';
import { recordRemoteStatus, remoteStatusStore } from '../remotes/remote-status.store.js';
import { healthStore, recordHealth } from './health.store.js';
import { AboutDialog } from './AboutDialog.js';

afterEach(() => {
  remoteStatusStore.setState({}, true);
  healthStore.setState({}, true);
});

describe('About view', () => {
  it("shows which release of each remote this page runs", async () => {
    renderInShell(<AboutDialog />);
    act(() => {
      recordRemoteStatus('mfe-chat', { status: 'running', release: 'previous', version: '1.0.0' });
      recordRemoteStatus('mfe-sheets', { status: 'running', release: 'canary', version: '2.1.0' });
      recordRemoteStatus('mfe-git', { status: 'failed', message: 'mfe-git: no release could be loaded' });
    });
    fireEvent.click(screen.getByTestId('about-button'));
    const dialog = await screen.findByTestId('about-dialog');
    const row = (remote: string) => within(within(dialog).getByTestId(`remote-version-${remote}`));
    expect(row('mfe-chat').getByText('1.0.0')).toBeInTheDocument();
    expect(row('mfe-chat').getByText('previous')).toBeInTheDocument();
    expect(row('mfe-sheets').getByText('canary')).toBeInTheDocument();
    expect(row('mfe-git').getByText('unavailable')).toBeInTheDocument();
    expect(row('mfe-members').getByText('not loaded')).toBeInTheDocument();
  });

  it('says which Python runs code and its packages, as the ai-middleware\'s health reports them', async () => {
    renderInShell(<AboutDialog />);
    const at = { url: 'http://localhost:3000/ai/health', status: 'healthy', lastCheck: new Date().toISOString(), responseTime: 3 } as const;
    act(() => recordHealth({ service: 'ai-middleware', ...at, codeRunner: { engine: 'gvisor', packages: { python: '3.11.2', pandas: '1.5.3', matplotlib: '3.6.3' } } }));
    fireEvent.click(screen.getByTestId('about-button'));
    const dialog = await screen.findByTestId('about-dialog');
    expect(within(dialog).getByTestId('python-engine')).toHaveTextContent('CPython in gVisor, Python 3.11.2 — matplotlib 3.6.3, pandas 1.5.3');
    act(() => recordHealth({ service: 'ai-middleware', ...at, codeRunner: { engine: 'pyodide', packages: {} } }));
    expect(within(dialog).getByTestId('python-engine')).toHaveTextContent(/^Pyodide \(standard library only\)$/);
  });
});
