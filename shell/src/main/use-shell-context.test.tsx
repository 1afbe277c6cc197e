import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ServicesProvider } from '../services/services.context.js';
import { servicesFor } from '../test/render-app.js';
import { useLiveSession } from '../live/use-live-session.js';
import { useShellContext } from './use-shell-context.js';

function Probe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' }, useLiveSession('u1'));
  return <output data-testid="user">{`${shell.user.nickname ?? '-'}|${shell.user.email ?? '-'}`}</output>;
}

test("a profile saved in account settings (bus 'profile-updated') reaches every remote's shell.user", () => {
  const services = servicesFor('http://127.0.0.1:9');
  render(
    <MemoryRouter>
      <ServicesProvider services={services}>
        <Probe />
      </ServicesProvider>
    </MemoryRouter>,
  );
  expect(screen.getByTestId('user')).toHaveTextContent('-|-');
  act(() => services.bus.emit('profile-updated', { userId: 'someone-else', nickname: 'X', email: null }));
  expect(screen.getByTestId('user')).toHaveTextContent('-|-');
  act(() => services.bus.emit('profile-updated', { userId: 'u1', nickname: 'Al', email: 'al@example.com' }));
  expect(screen.getByTestId('user')).toHaveTextContent('Al|al@example.com');
});

function SheetProbe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' }, useLiveSession('u1'));
  const { sheet } = shell;
  return (
    <>
      <output data-testid="sheet">{`${sheet.id}|${sheet.name ?? '-'}|${sheet.size.rows}x${sheet.size.cols}|v${sheet.version ?? '-'}|${JSON.stringify(sheet.selection)}`}</output>
      <button
        type="button"
        onClick={() =>
          sheet.report({ id: 's1', name: 'Budget', headers: ['A'], size: { rows: 3, cols: 1 }, version: 7, getData: () => [[1], [2], [3]] })
        }
      >
        report
      </button>
      <button type="button" onClick={() => sheet.select(2, 0)}>
        select
      </button>
    </>
  );
}

test("what the Workspace reports through shell.sheet reaches every remote's shell.sheet, selection included", () => {
  const services = servicesFor('http://127.0.0.1:9');
  render(
    <MemoryRouter initialEntries={['/sheets/s1']}>
      <ServicesProvider services={services}>
        <SheetProbe />
      </ServicesProvider>
    </MemoryRouter>,
  );
  expect(screen.getByTestId('sheet')).toHaveTextContent('s1|-|0x0|v-|null');
  act(() => screen.getByRole('button', { name: 'report' }).click());
  act(() => screen.getByRole('button', { name: 'select' }).click());
  expect(screen.getByTestId('sheet')).toHaveTextContent('s1|Budget|3x1|v7|{"row":2,"col":0}');
});
