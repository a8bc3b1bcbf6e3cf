/**
 * What the browser reports as wrong while a scenario runs: uncaught errors, `console.error` (the console's
 * and the browser's own, such as failed loads), an Error object logged at any other level, and what the
 * Content Security Policy blocked. Any of them fails the scenario, with the messages. The page's text is
 * checked too (at every screenshot and when the scenario ends): a raw i18n key or a raw code where a
 * label belongs fails the scenario as well.
 */
import {
  ABNORMAL_REASON_LABELS,
  ABNORMAL_TYPE_LABELS,
  CARD_STATUS_LABELS,
  CHARGE_POINT_ERROR_LABELS,
  type CodeLabels,
  COMMAND_ANSWER_STATUS_LABELS,
  ORDER_OPERATION_ACTION_LABELS,
  ORDER_STATUS_LABELS,
  RESERVATION_STATUS_LABELS,
  REVIEW_STATUS_LABELS,
  STOP_REASON_LABELS,
} from '@voltdepot/shared-contracts';
import { ChargePointStatuses } from '@voltdepot/shared-ocpp';
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';

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

// ---- Raw i18n keys and codes in the page's text

/** A dotted identifier, each part starting lower case: how the console's i18n keys look. */
const KEY_SHAPE = /^[a-z][a-zA-Z0-9_]*(?:\.[a-z][a-zA-Z0-9_]*)+$/;
/** A run of characters a key, a URL, an e-mail address, a file name or a template variable is made of. */
const TOKEN = /[A-Za-z0-9_.@/:${}%#?=&~+-]+/g;
/** Last parts that make a dotted word a host name or a file name, not a key. */
const NOT_KEY_ENDINGS = new Set(
  (
    'com cn net org io gov edu info biz local lan internal localhost test example dev app cloud site ' +
    'xlsx xls csv pdf png jpg jpeg gif svg webp json js mjs cjs ts tsx css html htm txt zip gz log md yml yaml xml'
  ).split(' '),
);

/**
 * The top-level namespaces of the console's messages (the keys of `apps/console/src/locales/en-US.ts`;
 * page-problems.spec.ts reads that file and fails when they differ). A raw key starts with one of them,
 * so user data with dots (a user name such as `zhang.san`) is never taken for a key.
 */
export const LOCALE_NAMESPACES = new Set([
  'app',
  'menu',
  'header',
  'notice',
  'locale',
  'common',
  'grid',
  'request',
  'serverError',
  'chunk',
  'error',
  'notFound',
  'forbidden',
  'session',
  'user',
  'password',
  'home',
  'welcome',
  'login',
  'logs',
  'screen',
  'messages',
  'monitoring',
  'assets',
  'admin',
  'billing',
  'iccard',
  'iccardBill',
  'timeZone',
]);

/**
 * The i18n keys shown raw in a text (`menu.system.name`, `notice.inbox`, `billing.order.endReason.x`): dotted
 * identifiers under one of the console's namespaces. URLs, host names, e-mail addresses, file names,
 * version numbers, template variables (`${pile.name}`), abbreviations (`e.g.`) and user data with dots
 * (`zhang.san`) are not keys.
 */
export function rawI18nKeys(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0].replace(/\.+$/, ''); // a full stop ending a sentence
    if (/[@/:${}%#?=&~+]/.test(token) || !KEY_SHAPE.test(token)) continue;
    const parts = token.split('.');
    if (!LOCALE_NAMESPACES.has(parts[0]) || NOT_KEY_ENDINGS.has(parts[parts.length - 1].toLowerCase()))
      continue;
    found.add(token);
  }
  return [...found];
}

const labelled: CodeLabels<string>[] = [
  STOP_REASON_LABELS,
  CHARGE_POINT_ERROR_LABELS,
  COMMAND_ANSWER_STATUS_LABELS,
  ABNORMAL_REASON_LABELS,
  ABNORMAL_TYPE_LABELS,
  ORDER_STATUS_LABELS,
  REVIEW_STATUS_LABELS,
  ORDER_OPERATION_ACTION_LABELS,
  RESERVATION_STATUS_LABELS,
  CARD_STATUS_LABELS,
];
/** Codes the console labels, with their English labels; OCPP connector statuses have no labels of their own. */
const KNOWN_CODES = new Map<string, string | undefined>([
  ...ChargePointStatuses.map((status): [string, undefined] => [status, undefined]),
  ...labelled.flatMap((labels) =>
    Object.entries(labels).map(([code, label]): [string, string] => [code, label['en-US']]),
  ),
]);

/**
 * A cell (a grid cell, a description, a tag) that shows a code instead of its label: `Local` or
 * `EVDisconnected` as an order's end reason, `paid` as its status. On a Chinese page any code shown alone
 * is raw; on an English page only one that differs from its English label (`Accepted` is both).
 */
export function rawCode(cell: string, lang: string): string | undefined {
  const text = cell.trim();
  if (!KNOWN_CODES.has(text)) return undefined;
  if (lang.startsWith('zh')) return text;
  const english = KNOWN_CODES.get(text);
  // Without a label of its own, a code reads as English only when it is one word (`Charging`, not `SuspendedEV`).
  if (english === undefined) return /^[A-Z][a-z]+$/.test(text) ? undefined : text;
  return english === text ? undefined : text;
}

/** What a page shows, as the harness reads it: its language, its visible text and its cells' texts. */
export type PageText = { lang: string; text: string; cells: string[] };

/** The raw keys and codes a page shows, as problem messages. */
export function pageTextProblems(page: PageText, where: string): string[] {
  const keys = rawI18nKeys(page.text).map((key) => `raw i18n key "${key}" shown on ${where}`);
  const codes = [...new Set(page.cells.map((cell) => rawCode(cell, page.lang)))]
    .filter((code): code is string => code !== undefined)
    .map((code) => `raw code "${code}" shown as a label on ${where}`);
  return [...keys, ...codes];
}

/** Cells whose whole text should be a label. */
const CELLS =
  'td, .ant-descriptions-item-content, .ant-tag, .ant-select-selection-item, .ant-badge-status-text, .ant-timeline-item-content';
/** Where raw text is meant: code samples and what the user typed. */
const RAW_OK =
  'code, pre, kbd, samp, script, style, noscript, textarea, [contenteditable="true"], [data-raw-text]';

/** Reads what the page shows (in the page; the scripts compile without DOM typings). */
async function readPageText(page: Page): Promise<PageText> {
  return page.evaluate(
    ([cells, rawOk]) => {
      type El = {
        closest(selector: string): El | null;
        checkVisibility?(): boolean;
      };
      type TextNode = { textContent: string | null; parentElement: El | null };
      const doc = (
        globalThis as unknown as {
          document: {
            documentElement: { lang: string };
            title: string;
            body: unknown;
            createTreeWalker(root: unknown, show: number): { nextNode(): TextNode | null };
            querySelectorAll(selector: string): Iterable<El>;
          };
        }
      ).document;
      const shown = (el: El | null) => !!el && !el.closest(rawOk) && (el.checkVisibility?.() ?? true);
      // The visible text under a node, leaving out code samples and what the user typed.
      const textsIn = (root: unknown) => {
        const texts: string[] = [];
        const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.textContent?.trim() && shown(node.parentElement)) texts.push(node.textContent);
        }
        return texts;
      };
      const cellTexts = [...doc.querySelectorAll(cells)]
        .filter((el) => shown(el))
        .map((el) => textsIn(el).join('').trim())
        .filter((text) => text.length > 0 && text.length < 40);
      const texts = [doc.title, ...textsIn(doc.body)]; // the tab's title too
      return { lang: doc.documentElement.lang, text: texts.join('\n'), cells: cellTexts };
    },
    [CELLS, RAW_OK] as const,
  );
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

  /** Checks what the page shows now for raw i18n keys and raw codes. */
  async checkText(page: Page): Promise<void> {
    if (page.isClosed()) return;
    const url = page.url();
    if (!url.startsWith('http')) return;
    const text = await readPageText(page).catch(() => undefined); // navigating away, closed meanwhile
    if (text) for (const problem of pageTextProblems(text, new URL(url).pathname)) this.add(problem);
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
