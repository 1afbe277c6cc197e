import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App.js';
import { installGlobalErrorHandlers } from './errors/global-errors.js';
import { createShellServices } from './services/shell-services.js';

installGlobalErrorHandlers(window);

// Same origin as the shell server, which proxies /api/v1, /ai and /health to the services.
const services = createShellServices({ baseUrl: '', storage: window.localStorage });

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App services={services} />
    </BrowserRouter>
  </StrictMode>,
);
