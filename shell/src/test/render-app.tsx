import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { App } from '../app/App.js';
import { createShellServices, type ShellServices } from '../services/shell-services.js';

/** Shows the router's current location, so tests can see redirects. */
export function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

/** Services against a loopback server, with the page's localStorage. */
export function servicesFor(baseUrl: string): ShellServices {
  return createShellServices({ baseUrl, storage: window.localStorage });
}

export function renderApp(services: ShellServices, path: string): RenderResult {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App services={services} />
      <LocationProbe />
    </MemoryRouter>,
  );
}
