/**
 * IC cards in the console (issue #25): an operator makes a registered CPU card with the card reader (the
 * simulated reader agent, `npm run card-reader`, on a port of its own), recharges it 100.00 (reader ->
 * server -> card), and finds the recharge in the records and on the card's detail page; and every IC-card
 * screen, with the demo's companies, customers, cards, accounts and bills, in Chinese and in English.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  ACCOUNTS,
  adminApi,
  seedRunDemoDepot,
  signIn,
  visible,
  type Scenario,
  type ScenarioContext,
} from './support';

const ROOT = join(__dirname, '..', '..', '..');

type ReaderAgent = { url: string; control: string; process: ChildProcess };

/** The simulated reader agent as a process of its own on a free port, for this console's origin only. */
async function startReader(t: ScenarioContext): Promise<ReaderAgent> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/card-reader/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
      CARD_READER_PORT: '0',
      CARD_READER_ALLOWED_ORIGINS: new URL(t.baseUrl).origin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`card reader did not start: ${output}`)), 30_000);
    const hear = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`card reader exited (${code}): ${output}`));
    });
  });
  return { url: `ws://127.0.0.1:${port}`, control: `http://127.0.0.1:${port}`, process: child };
}

async function control(reader: ReaderAgent, method: string, path: string, body?: unknown) {
  const res = await fetch(`${reader.control}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `reader ${method} ${path} -> ${res.status} ${text}`);
  return JSON.parse(text) as {
    slot: string | null;
    cards: { uid: string; cardNo: string | null; balanceFen: number }[];
  };
}

/** A grid of the page has rows (the demo's data). */
async function gridRows(page: Page) {
  await page.locator('.ant-table-row').first().waitFor({ timeout: 15_000 });
}

const SCREENS: { path: (ids: { group: number }) => string; rows: boolean; name: string }[] = [
  { name: 'customer', path: () => '/iccard/customer', rows: true },
  { name: 'cardManage', path: () => '/iccard/cardManage', rows: true },
  { name: 'driverCard', path: () => '/iccard/driverCard', rows: true },
  { name: 'recharge', path: () => '/iccard/recharge', rows: true },
  // The run's depot does not charge: its consumption appears once piles do (the system test covers it).
  { name: 'consumption', path: () => '/iccard/consumption', rows: false },
  { name: 'groupAccount', path: () => '/iccard/groupAccount', rows: true },
  { name: 'group_basic_info', path: ({ group }) => `/iccard/group_basic_info?id=${group}`, rows: true },
  { name: 'bill', path: () => '/iccard/bill', rows: true },
  { name: 'icCard', path: () => '/report/components/icCard?cardNo=BUS0001', rows: true },
];

export const iccardScenarios: Scenario[] = [
  {
    name: 'IC cards: an operator makes a CPU card with the card reader, recharges it 100.00 and finds the record',
    async run(t) {
      await seedRunDemoDepot(t, 'e2e-iccard');
      const post = await adminApi(t);
      const customers = await post.get<{
        list: { id: number; userName: string; balanceFen: number | null }[];
      }>('/api/iccard/customer/page/1/size/50?clientType=1');
      const holder = customers.list[0];
      assert.ok(holder, 'the demo has personal customers');
      // The card draws on the holder's account: it shows the account's balance, 100.00 more after the recharge.
      const afterFen = (holder.balanceFen ?? 0) + 10_000;
      const after = (afterFen / 100).toFixed(2);
      const cardNo = `E2E${randomBytes(3).toString('hex').toUpperCase()}`;
      await post('/api/iccard/card', { cardNo, chip: 'CPU', cardType: 1, customerId: holder.id });

      const reader = await startReader(t);
      try {
        const uid = `04${randomBytes(4).toString('hex').toUpperCase()}`;
        await control(reader, 'PUT', `/cards/${uid}`, { chip: 'CPU' });
        await control(reader, 'PUT', '/slot', { uid });

        const page = await t.newPage();
        await page.addInitScript((url) => {
          (
            globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
          ).localStorage.setItem('voltdepot.cardReaderUrl', url);
        }, reader.url);
        await signIn(page, t, ACCOUNTS.admin);
        await page.goto(`${t.baseUrl}/iccard/cardManage`);
        // The reader is asked when the operator checks it (or acts), never in the background.
        await page.getByTestId('reader-check').first().click();
        await page.locator('[data-testid="reader-indicator"][data-connection="connected"]').first().waitFor();
        const filter = page.locator('.ant-pro-query-filter').first();
        await filter.getByLabel('卡号').fill(cardNo);
        await filter.getByRole('button', { name: /查\s*询/ }).click();
        await page.getByTestId(`card-status-${cardNo}`).filter({ hasText: '未制卡' }).waitFor();
        await t.screenshot(page, 'iccard-card-registered');

        // Make: the blank card in the reader gets its keys and number; the record is normal.
        await page.getByTestId(`card-make-${cardNo}`).click();
        await page.getByTestId('card-action-ok').click();
        await page.getByTestId(`card-status-${cardNo}`).filter({ hasText: '正常' }).waitFor();

        // Recharge 100.00: read the card, post the recharge, write the new balance to the card.
        await page.getByTestId(`card-recharge-${cardNo}`).click();
        await page.getByTestId('amount-input').fill('100');
        await page.getByTestId('card-action-ok').click();
        await visible(page, '充值成功');
        const row = page.locator('.ant-table-row', { hasText: cardNo });
        await row.getByText(after).waitFor();
        await t.screenshot(page, 'iccard-card-recharged');
        const onReader = (await control(reader, 'GET', '/cards')).cards.find((card) => card.uid === uid);
        assert.equal(onReader?.cardNo, cardNo, 'the reader made the card with its number');
        assert.equal(onReader?.balanceFen, afterFen, 'the new balance is written on the card');

        // The records: the recharge with its amounts before and after; the card's detail page.
        await page.goto(`${t.baseUrl}/iccard/recharge`);
        const records = page.locator('.ant-pro-query-filter').first();
        await records.getByLabel('卡号').fill(cardNo);
        await records.getByRole('button', { name: /查\s*询/ }).click();
        await page.locator('.ant-table-row', { hasText: '100.00' }).first().waitFor();
        await t.screenshot(page, 'iccard-recharge-records');
        await page.goto(`${t.baseUrl}/report/components/icCard?cardNo=${cardNo}`);
        await visible(page, holder.userName);
        await page.locator('.ant-table-row', { hasText: '100.00' }).first().waitFor();
        await t.screenshot(page, 'iccard-card-detail');
      } finally {
        reader.process.kill();
      }
    },
  },
  // Three screens a scenario: each is a full load of the console, and a scenario has 90 s.
  ...(['zh-CN', 'en-US'] as const).flatMap((locale) =>
    [0, 1, 2].map((part): Scenario => ({
      name: `IC cards: the screens with the demo's cards, accounts and bills in ${locale} (${part + 1}/3)`,
      async run(t) {
        await seedRunDemoDepot(t, `e2e-iccard-${locale}-${part}`);
        const groups = await (
          await adminApi(t)
        ).get<{ list: { id: number }[] }>('/api/iccard/customer/page/1/size/10?clientType=2');
        assert.ok(groups.list[0], 'the demo has groups');
        const page = await t.newPage({ locale });
        await signIn(page, t, ACCOUNTS.admin);
        for (const screen of SCREENS.slice(part * 3, part * 3 + 3)) {
          await page.goto(`${t.baseUrl}${screen.path({ group: groups.list[0].id })}`);
          if (screen.rows) await gridRows(page);
          else await page.locator('.ant-table').first().waitFor();
          await t.screenshot(page, `iccard-${screen.name}-${locale}`);
        }
      },
    })),
  ),
];
