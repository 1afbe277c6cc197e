import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ServicesProvider } from '../services/services.context.js';
import { servicesFor } from '../test/render-app.js';
import { useShellContext } from './use-shell-context.js';

function Probe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' });
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
