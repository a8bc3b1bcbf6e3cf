// First: the page's style nonce must be in place before anything renders (app/csp/styleNonce.ts).
import '../app/csp/installStyleNonce';
import { theme } from 'antd';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { bootstrapConsole } from '../app/bootstrap';
import { AppProviders } from '../app/providers/AppProviders';
import { bindRequestRuntime, LOGIN_PATH, sessionStore } from '../request';
import { ScreenApp } from './ScreenApp';
import { adoptTokenFromUrl } from './screenSession';

async function main() {
  const container = document.getElementById('root');
  if (!container) throw new Error('screen/index.html has no #root element');
  const cleaned = adoptTokenFromUrl(window.location.href, sessionStore, Date.now());
  if (cleaned) window.history.replaceState(null, '', cleaned);
  if (!sessionStore.get()) {
    // Opened without a session (bookmark, expired): sign in on the console first.
    window.location.replace(`${import.meta.env.BASE_URL}${LOGIN_PATH.slice(1)}`);
    return;
  }
  const { i18n, queryClient, platform } = await bootstrapConsole();
  // No router here: a 401 goes to /login by a full navigation (the request layer's default).
  bindRequestRuntime({ translate: (key) => i18n.t(key) });
  createRoot(container).render(
    <StrictMode>
      <AppProviders
        i18n={i18n}
        queryClient={queryClient}
        platform={platform}
        theme={{ algorithm: theme.darkAlgorithm }}
      >
        <ScreenApp />
      </AppProviders>
    </StrictMode>,
  );
}

void main();
