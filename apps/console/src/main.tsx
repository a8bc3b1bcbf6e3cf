// First: the page's style nonce must be in place before anything renders (app/csp/styleNonce.ts).
import './app/csp/installStyleNonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { bootstrapConsole } from './app/bootstrap';
import { buildRoutes } from './app/router/buildRoutes';

async function main() {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // Platform settings come first: the title, logo and theme colour depend on them.
  const { i18n, queryClient, platform } = await bootstrapConsole();
  createRoot(container).render(
    <StrictMode>
      <App
        i18n={i18n}
        queryClient={queryClient}
        platform={platform}
        router={createBrowserRouter(buildRoutes())}
      />
    </StrictMode>,
  );
}

void main();
