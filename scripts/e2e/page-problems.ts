/**
 * What the browser reports as wrong while a scenario runs: uncaught errors, `console.error` (the console's
 * and the browser's own, such as failed loads), an Error object logged at any other level, and what the
 * Content Security Policy blocked. Any of them fails the scenario, with the messages.
 */
import type { BrowserContext, ConsoleMessage } from 'playwright-core';

/** The paths the console server passes to the api and the message centre. */
const API_PATH = /^\/(?:api|auth|public|authority|user|favorite|ms)(?:\/|$)/;
const REFUSED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

/**
 * The one kind of browser error a scenario may cause: Chromium logs every 4xx answer of a fetch, and the
 * scenarios send wrong passwords, invalid forms and expired sessions on purpose. The console shows those
 * answers itself. A 5xx, and a 4xx of anything but an API call (a script, a style, an image), still fail.
 */
export function isExpectedBrowserError(text: string, url: string | undefined): boolean {
  const status = REFUSED_LOAD.exec(text)?.[1];
  if (status === undefined || !status.startsWith('4') || url === undefined) return false;
  try {
    return API_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** An Error object in a message, as Chromium prints it: `TypeError: ...` followed by its stack. */
const PRINTED_ERROR = /\b\w*Error: [^\n]*\n\s+at /;

/**
 * A message below `error` level that still reports an error: libraries that catch an exception and log it
 * (pro-layout logs its menu matcher's `TypeError: Missing text after ...` with console.log).
 */
export function carriesError(text: string): boolean {
  return PRINTED_ERROR.test(text);
}

/** What the page tells the binding about a `securitypolicyviolation` event. */
type Violation = { directive: string; blocked: string; source: string; sample: string };

const BINDING = '__voltdepotCspViolation';

export class PageProblems {
  private readonly counts = new Map<string, number>();

  /** Listens on every page the context opens, from its first script on. */
  async watch(context: BrowserContext): Promise<void> {
    await context.exposeBinding(BINDING, (source, violation: Violation) =>
      this.add(
        `CSP blocked ${violation.blocked || 'inline code'} (${violation.directive})` +
          `${violation.sample ? ` "${violation.sample}"` : ''} at ${violation.source || source.page.url()}`,
      ),
    );
    await context.addInitScript((binding) => {
      // In the page: the scripts compile without DOM typings (see browser-globals.ts).
      const page = globalThis as unknown as {
        document?: { addEventListener(type: string, listener: (event: unknown) => void): void };
      } & Record<string, ((violation: Violation) => void) | undefined>;
      // The event says more than the browser's console line: the directive, what was blocked, a sample.
      page.document?.addEventListener('securitypolicyviolation', (event) => {
        const e = event as {
          effectiveDirective: string;
          blockedURI: string;
          sourceFile: string;
          lineNumber: number;
          sample: string;
        };
        page[binding]?.({
          directive: e.effectiveDirective,
          blocked: e.blockedURI,
          source: e.sourceFile ? `${e.sourceFile}:${e.lineNumber}` : '',
          sample: e.sample,
        });
      });
    }, BINDING);
    context.on('page', (page) => {
      page.on('pageerror', (error) => this.add(`uncaught ${error.name}: ${error.message} at ${page.url()}`));
      page.on('console', (message) => this.onConsole(message, page.url()));
    });
  }

  /** The problems seen so far, each once with its count. */
  list(): string[] {
    return [...this.counts].map(([message, count]) => (count > 1 ? `${message} (×${count})` : message));
  }

  private onConsole(message: ConsoleMessage, pageUrl: string): void {
    const text = message.text();
    const url = message.location().url || undefined;
    if (message.type() === 'error') {
      if (!isExpectedBrowserError(text, url))
        this.add(`console error: ${text}${url ? ` (${url})` : ''} on ${pageUrl}`);
    } else if (carriesError(text)) {
      this.add(`console ${message.type()} with an error: ${text} on ${pageUrl}`);
    }
  }

  private add(message: string): void {
    // Long messages (a stack, a whole policy) are cut: the start says what it is.
    const key = message.length > 400 ? `${message.slice(0, 400)}…` : message;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
