import { afterEach } from 'vitest';
import { pushRuntime } from '../app/notice/pushClient';
import { cleanup } from './render';

// Runs before every test file, in jsdom and in node environments alike.

// Lets React's act() know it is running in a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

if (typeof window !== 'undefined' && !window.matchMedia) {
  // jsdom has no matchMedia; antd's responsive components ask for it.
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (typeof window !== 'undefined') {
  // jsdom implements getComputedStyle but not its pseudo-element argument, which antd's scrollbar
  // measurement passes; answer for the element instead of logging "Not implemented".
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => getComputedStyle(element);
}

// No real WebSocket in unit tests: the message centre's push connection gets an idle STOMP client
// (specs that exercise the push pass their own fake).
if (typeof window !== 'undefined') {
  pushRuntime.createClient = () => ({
    activate: () => undefined,
    deactivate: () => Promise.resolve(),
    subscribe: () => ({ id: 'idle', unsubscribe: () => undefined }),
    watchForReceipt: () => undefined,
  });
}

if (typeof window !== 'undefined') {
  // Every test starts from an empty page, whatever the one before rendered.
  afterEach(cleanup);
}
