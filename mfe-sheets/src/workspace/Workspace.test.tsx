import { screen } from '@testing-library/react';
import { createDevShellContext } from '@tessera/contracts';
import { renderInShell } from '@tessera/jest-react';
import Workspace from './Workspace.js';

test('with no sheet selected it shows the placeholder of the spec', () => {
  renderInShell(<Workspace shell={createDevShellContext({ sheetId: null })} />);
  expect(screen.getByRole('heading', { name: 'No Sheet Selected' })).toBeInTheDocument();
  expect(screen.getByText('Select a sheet from the sidebar to get started')).toBeInTheDocument();
});

test('with a sheet selected it names the sheet and drops the placeholder', () => {
  renderInShell(<Workspace shell={createDevShellContext({ sheetId: 'sheet-42' })} />);
  expect(screen.getByRole('heading', { name: 'Sheet sheet-42' })).toBeInTheDocument();
  expect(screen.queryByText('No Sheet Selected')).not.toBeInTheDocument();
});
