/**
 * Billing in the console (features/billing): an administrator edits the demo depot's price plan (a gap is
 * named and refused, a 4-decimal price is saved, the 24 hours are drawn); a simulated pile charges a bus
 * through the gateway and settlement; the order appears in the order query (default range yesterday to
 * today) with its totals, is exported as .xlsx, and its session detail shows power, energy and SoC
 * charts, the band split and the operation log; the plan lists and the abnormal orders in both languages.
 */
import ExcelJS from 'exceljs';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedPile, type SessionRecord } from '@voltdepot/server-ocpp-simulator';
import type { Page } from 'playwright-core';
import { DEMO_PILE_PASSWORD } from '../../demo-depot';
import {
  ACCOUNTS,
  eventually,
  pathOf,
  seedRunDemoDepot,
  signIn,
  visible,
  withRunDatabase,
  type Scenario,
  type ScenarioContext,
} from './support';

/** The pile and bus card this file charges with (no other scenario uses them). */
const PILE = 'DEPOT-A-05';
const CARD = 'BUS0009';

const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

/** The run's database: seed the demo depot (idempotent), or read what settlement wrote. */
async function withDatabase<T>(
  t: ScenarioContext,
  work: (query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>) => Promise<T>,
): Promise<T> {
  return withRunDatabase(t, 'e2e-billing', (dataSource) =>
    work((sql, params) => dataSource.query(sql, params)),
  );
}

/** kWh with three decimals, as the console writes Wh. */
const kwh = (wh: number) => `${Math.floor(wh / 1000)}.${String(wh % 1000).padStart(3, '0')}`;

/** One session on the demo pile: plugged in, charged for a few seconds at 60x, stopped by the driver. */
async function chargeOnce(t: ScenarioContext): Promise<SessionRecord> {
  const pile = new SimulatedPile({
    url: t.services.ocppUrl,
    chargePointId: PILE,
    password: DEMO_PILE_PASSWORD,
    connectors: 2,
    timeScale: 60,
    meterIntervalMs: 500,
    bootRetryMs: 500,
  });
  try {
    await eventually(() => pile.start(), 20_000);
    await pile.startSession(1, CARD, { autoStop: false, startSoc: 35 });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const session = await pile.stopSession(1, 'Local');
    await pile.drained();
    return session;
  } finally {
    await pile.stop();
  }
}

export const billingScenarios: Scenario[] = [
  {
    name: 'billing: admin edits a price plan (a gap is named and refused, a 4-decimal price saved) and sees its 24 hours',
    async run(t) {
      await seedRunDemoDepot(t, 'e2e-billing');
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await page.goto(`${t.baseUrl}/operation/pricePlan`);
      const row = page.locator('tbody tr.ant-table-row', { hasText: '公交场站分时电价' });
      await row.waitFor();
      assert.ok((await row.textContent())?.includes('0.8523'), 'the peak price with 4 decimals');

      await row.getByText('编辑').click();
      const dialog = modal(page);
      await dialog.getByTestId('coverage-feedback').getByText('时段完整覆盖全天 00:00-24:00').waitFor();
      // Stage 3 of the demo plan is normal 08:00-10:00: end it at 09:00 and the day has a gap.
      const endOfNormal = dialog.getByTestId('stage-row-2').getByLabel('结束时间');
      await endOfNormal.fill('09:00');
      await dialog.getByText('09:00 至 10:00 未被任何时段覆盖（空缺）').waitFor();
      await t.screenshot(page, 'price-plan-gap-zh-CN');
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await visible(page, '请先修正时段的空缺或重叠');
      await endOfNormal.fill('10:00');
      await dialog.getByText('时段完整覆盖全天 00:00-24:00').waitFor();
      // Five decimals are refused as typed; four are kept exactly.
      const peakPrice = dialog.getByTestId('stage-row-3').getByLabel('电价', { exact: true });
      await peakPrice.fill('0.85291');
      await dialog.getByText('价格最多 4 位小数，例如 0.8523').waitFor();
      await peakPrice.fill('0.8529');
      await dialog.getByTestId('stage-band-chart').locator('svg').first().waitFor();
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await visible(page, '保存成功');
      await dialog.waitFor({ state: 'hidden' });

      await eventually(async () =>
        assert.ok((await row.textContent())?.includes('0.8529'), 'the saved price'),
      );
      await row.locator('.ant-table-row-expand-icon').click();
      const detail = page.locator('[data-testid^="price-plan-detail-"]');
      await detail.locator('svg').first().waitFor();
      assert.ok((await detail.textContent())?.includes('0.8529'));
      await t.screenshot(page, 'price-plans-zh-CN');
      const stored = await withDatabase(t, (q) =>
        q(`SELECT s.electricity_price FROM price_plan_stage s JOIN price_plan p ON p.id = s.plan_id
            WHERE p.is_default AND s.stage_type = 'peak'`),
      );
      assert.deepEqual(
        stored.map((r) => Number(r['electricity_price'])),
        [8529],
        'stored as 1/10,000 yuan',
      );

      // The price plan list as .xlsx.
      const download = page.waitForEvent('download');
      await page.getByTestId('price-plan-export').click();
      const file = await download;
      assert.equal(file.suggestedFilename(), '电价方案.xlsx');
      const target = join(t.downloadsDir, `billing-${file.suggestedFilename()}`);
      await file.saveAs(target);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(readFileSync(target) as unknown as ArrayBuffer);
      const values: unknown[] = [];
      workbook.worksheets[0].eachRow((r) => values.push(...(r.values as unknown[])));
      assert.ok(values.includes(0.8529), 'the sheet has the new peak price');
    },
  },
  {
    name: 'billing: a simulated session becomes an order; the order query (default range) shows it with totals and exports it as .xlsx; its detail has charts',
    async run(t) {
      const session = await chargeOnce(t);
      assert.ok(session.energyWh > 0, 'the bus took energy');
      const [order] = await eventually(async () => {
        const rows = await withDatabase(t, (q) =>
          q(
            'SELECT id, order_no, energy_wh, total_fen FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2',
            [PILE, session.transactionId],
          ),
        );
        assert.equal(rows.length, 1, 'settled into one order');
        return rows;
      });
      assert.equal(
        Number(order['energy_wh']),
        session.energyWh,
        'the order has the energy the pile metered, to the Wh',
      );
      assert.ok(Number(order['total_fen']) > 0, 'and a price');

      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      // Default range: yesterday 00:00:00 to today 23:59:59.
      const firstPage = page.waitForRequest((r) =>
        new URL(r.url()).pathname.startsWith('/api/chargingOrder/page/'),
      );
      await page.goto(`${t.baseUrl}/operation/orderManage/orderQuery`);
      const request = await firstPage;
      const query = new URL(request.url()).searchParams;
      // The browser's own yesterday 00:00:00 and today 23:59:59 (it runs in the business time zone).
      const [from, to] = await page.evaluate(() => {
        const now = new Date();
        return [
          new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1).getTime(),
          new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59).getTime(),
        ];
      });
      assert.match(query.get('start') ?? '', /[+-]\d{2}:\d{2}$/, 'an instant with its offset');
      assert.equal(new Date(query.get('start') ?? '').getTime(), from, 'from yesterday 00:00:00');
      assert.equal(new Date(query.get('end') ?? '').getTime(), to, 'to today 23:59:59');
      const range = page.locator('.ant-pro-query-filter .ant-picker-range input');
      assert.match(await range.first().inputValue(), / 00:00:00$/);
      assert.match(await range.last().inputValue(), / 23:59:59$/);

      // Narrow to the bus card, query, and find the order with its energy.
      await page.locator('.ant-pro-query-filter').getByLabel('卡号').fill(CARD);
      await page
        .locator('.ant-pro-query-filter')
        .getByRole('button', { name: /查\s*询/ })
        .click();
      const orderRow = page.locator('tbody tr.ant-table-row', { hasText: String(order['order_no']) });
      await orderRow.waitFor();
      const rowText = (await orderRow.textContent()) ?? '';
      assert.ok(rowText.includes(kwh(session.energyWh)), `energy ${kwh(session.energyWh)} kWh shown`);
      assert.ok(rowText.includes('东郊公交充电站'), 'station name');
      const totals = page.getByTestId('order-totals');
      await eventually(async () => assert.ok((await totals.textContent())?.includes('合计 1 单')));
      assert.ok((await totals.textContent())?.includes(kwh(session.energyWh)), 'totals energy');
      await t.screenshot(page, 'order-query-zh-CN');

      const download = page.waitForEvent('download');
      await page.getByTestId('order-export').click();
      const file = await download;
      assert.equal(file.suggestedFilename(), '充电订单.xlsx');
      const target = join(t.downloadsDir, `billing-${file.suggestedFilename()}`);
      await file.saveAs(target);
      const bytes = readFileSync(target);
      assert.equal(bytes.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'an xlsx is a zip file');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheetRows: unknown[][] = [];
      workbook.worksheets[0].eachRow((r) => sheetRows.push((r.values as unknown[]).slice(1)));
      assert.equal(sheetRows.length, 2, 'the header and the one filtered order');
      assert.equal(sheetRows[0][0], '订单号');
      assert.equal(sheetRows[1][0], order['order_no']);
      assert.ok(sheetRows[1].includes(session.energyWh / 1000), 'energy in kWh');
      await visible(page, '已导出 充电订单.xlsx');

      // The session detail: its charts, band split and log.
      await orderRow.getByRole('link', { name: String(order['order_no']) }).click();
      await page.waitForURL((url) => url.pathname === '/report/components/session');
      assert.equal(pathOf(page), '/report/components/session');
      for (const chart of ['power', 'energy', 'soc'])
        await page.getByTestId(`order-chart-${chart}`).locator('svg').first().waitFor();
      const bands = page.getByTestId('order-bands');
      await bands.waitFor();
      assert.ok(
        (await bands.textContent())?.includes(kwh(session.energyWh)),
        'the bands add up to the energy',
      );
      const log = page.getByTestId('order-log');
      await log.getByText(`开始充电，卡号 ${CARD}`).waitFor();
      await log.getByText('停止充电，原因 充电桩本地停止').waitFor(); // OCPP Local, labelled
      await log.getByText(/结算完成，金额 \d+\.\d{2} 元/).waitFor();
      await t.screenshot(page, 'order-detail-zh-CN');
    },
  },
  {
    name: 'billing: discount plans, abnormal orders, occupation fee orders, reservations and the order detail in English',
    async run(t) {
      const page = await t.newPage({ locale: 'en-US' });
      await signIn(page, t, ACCOUNTS.admin);
      await page.goto(`${t.baseUrl}/operation/discountPlan`);
      await page.getByText('Discount plans').first().waitFor();
      await page.getByRole('button', { name: 'Add' }).click();
      const dialog = modal(page);
      await dialog.getByRole('button', { name: /OK/ }).click();
      await dialog.getByText('Please enter the plan name').waitFor();
      await dialog.getByText('Please choose the valid period').waitFor();
      await dialog.getByText('Please enter the card number').waitFor();
      await t.screenshot(page, 'discount-plan-validation-en-US');
      await dialog.getByRole('button', { name: /Cancel/ }).click();

      await page.goto(`${t.baseUrl}/operation/orderManage/abnormalOrder`);
      await page.getByText('Abnormal orders').first().waitFor();
      await page.getByTestId('order-totals').waitFor();
      await t.screenshot(page, 'abnormal-orders-en-US');

      await page.goto(`${t.baseUrl}/operation/orderManage/occupationOrder`);
      await page.getByText('Occupation fee orders').first().waitFor();
      await page.getByTestId('occupation-totals').waitFor();
      await page.getByTestId('occupation-export').waitFor();
      await t.screenshot(page, 'occupation-orders-en-US');

      await page.goto(`${t.baseUrl}/operation/reservation`);
      await page.getByText('Reservations').first().waitFor();
      await page.getByTestId('reservation-export').waitFor();
      await t.screenshot(page, 'reservations-en-US');

      await page.goto(`${t.baseUrl}/operation/orderManage/orderQuery`);
      await page.locator('.ant-pro-query-filter').getByLabel('Card number').fill(CARD);
      await page.locator('.ant-pro-query-filter').getByRole('button', { name: /Query/ }).click();
      const link = page.locator('tbody tr.ant-table-row a[data-testid^="order-link-"]').first();
      await link.click();
      await page.getByTestId('order-chart-energy').locator('svg').first().waitFor();
      await page.getByText(`Charging started with card ${CARD}`).waitFor();
      await t.screenshot(page, 'order-detail-en-US');
    },
  },
  {
    name: 'billing: maintenance staff cannot open the order query',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.maintainer);
      await page.goto(`${t.baseUrl}/operation/orderManage/orderQuery`);
      await visible(page, '403');
      await page.goto(`${t.baseUrl}/report/components/session?id=1`);
      await visible(page, '403');
    },
  },
];
