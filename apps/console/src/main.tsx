import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { createI18n } from './app/providers/i18n';
import { createQueryClient } from './app/providers/queryClient';
import { buildRoutes } from './app/router/buildRoutes';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const i18n = createI18n();
document.documentElement.lang = i18n.language;

createRoot(container).render(
  <StrictMode>
    <App i18n={i18n} queryClient={createQueryClient()} router={createBrowserRouter(buildRoutes())} />
  </StrictMode>,
);
