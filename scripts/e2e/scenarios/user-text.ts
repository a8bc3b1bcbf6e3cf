/**
 * User text is shown as text: a station, a vehicle, a card and a message template whose fields carry markup
 * (`<script>`, `<img onerror>`) are opened in every console place that shows them. Nothing may run (no
 * dialog), no element may come out of the text, and the text must read as it was typed. The message centre
 * sanitises rich text on the server: what it stores has nothing that runs.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  ACCOUNTS,
  adminApi,
  apiToken,
  signIn,
  stationBody,
  type Scenario,
  type ScenarioContext,
} from './support';

/** Markup in the text fields, within each field's length limit. */
function hostileRecords(run: string) {
  return {
    region: `<b>区</b>${run}`,
    station: `<script>alert(1)</script>${run}`,
    address: `<img src=x onerror=alert(2)> 北环路 ${run}`,
    vehicleModel: '<img src=x onerror=alert(3)>',
    vehicleSelfNumber: `<u>${run}</u>`,
    plate: `闽A·X${run.slice(0, 4)}`,
    cardholder: '<img src=x onerror=alert(4)>',
    template: `<script>alert(5)</script>${run}`,
  };
}
type HostileRecords = ReturnType<typeof hostileRecords>;

/** The station, bus and card, through the api. */
async function createRecords(t: ScenarioContext, text: HostileRecords): Promise<{ stationId: number }> {
  const post = await adminApi(t);
  const region = await post('/api/region', {
    name: text.region,
    areaCode: String(100000 + Math.floor(Math.random() * 899999)),
  });
  const labelIds: number[] = [];
  for (const type of ['payment', 'nationalStandard', 'chargingType', 'stationType'])
    labelIds.push((await post('/api/label', { type, name: `<i>${type}</i>${text.plate}` })).id);
  const station = await post(
    '/api/station',
    stationBody({
      number: `X${text.plate.slice(-4)}${randomBytes(2).toString('hex')}`,
      name: text.station,
      regionId: region.id,
      labelIds,
      address: text.address,
    }),
  );
  const maker = await post('/api/manufacturer', {
    name: `<s>CarCo</s>${text.plate.slice(-4)}`,
    type: 'car',
    contactName: '<b>Li</b>',
    contactNumber: '0591-88888888',
  });
  await post('/api/vehicle', {
    vin: `LVDXSS${randomBytes(6).toString('hex').toUpperCase()}`.slice(0, 17),
    plate: text.plate,
    selfNumber: text.vehicleSelfNumber,
    vehicleModel: text.vehicleModel,
    manufacturerId: maker.id,
    batteryCapacityWh: 350_000,
  });
  await post('/api/card', {
    physicalNumber: `X${randomBytes(5).toString('hex').toUpperCase()}`,
    type: 3,
    selfNumber: `C${text.plate.slice(-4)}`,
    cardholder: text.cardholder,
  });
  return { stationId: station.id };
}

/** Fails when the page has an element made from the markup (an event handler attribute, a script of ours). */
async function nothingInjected(page: Page, where: string): Promise<void> {
  const injected = await page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelectorAll(selector: string): ArrayLike<{ outerHTML: string; textContent: string }>;
        };
      }
    ).document;
    return [
      ...Array.from(doc.querySelectorAll('[onerror], [onclick], [onload]')),
      ...Array.from(doc.querySelectorAll('script')).filter((s) => s.textContent.includes('alert(')),
    ].map((element) => element.outerHTML.slice(0, 120));
  });
  assert.deepEqual(injected, [], `elements made from user text on ${where}`);
}

/** `text` is on the page as typed, in the element `scope` (the whole page by default). */
async function showsLiterally(page: Page, text: string, scope = page.locator('body')): Promise<void> {
  await scope.getByText(text, { exact: false }).first().waitFor();
}

async function gridLoaded(page: Page, kind: string): Promise<void> {
  await page.getByTestId(`grid-${kind}`).waitFor();
  await page.locator(`[data-testid="grid-${kind}"] .ant-spin-spinning`).waitFor({ state: 'detached' });
}

export const userTextScenarios: Scenario[] = [
  {
    name: 'user text: markup in station, bus, card and template fields is shown as text everywhere',
    async run(t) {
      const run = randomBytes(3).toString('hex').toUpperCase();
      const text = hostileRecords(run);
      const { stationId } = await createRecords(t, text);
      const page = await t.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await signIn(page, t, ACCOUNTS.admin);

      // The station grid (newest first), and its edit drawer.
      await page.goto(`${t.baseUrl}/basic/station`);
      await gridLoaded(page, 'station');
      const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: text.station });
      for (const value of [text.station, text.address, text.region]) await showsLiterally(page, value, row);
      await nothingInjected(page, 'the station grid');
      await t.screenshot(page, 'user-text-station-grid');
      await page.getByTestId(`edit-${stationId}`).click();
      const drawer = page.locator('.ant-drawer-open');
      await drawer.locator('#name').waitFor();
      assert.equal(await drawer.locator('#name').inputValue(), text.station);
      assert.equal(await drawer.locator('#address').inputValue(), text.address);
      await nothingInjected(page, 'the station drawer');
      await page.keyboard.press('Escape');

      // Station monitoring: the station list, the map's marker label and the station's details.
      await page.goto(`${t.baseUrl}/operation/stationMonitor?station=${stationId}`);
      await page.getByTestId('station-map').waitFor();
      await showsLiterally(page, text.station, page.locator('.leaflet-tooltip'));
      await showsLiterally(page, text.address, page.locator('.ant-descriptions'));
      await showsLiterally(page, text.station, page.getByTestId('station-select'));
      await nothingInjected(page, 'station monitoring');
      await t.screenshot(page, 'user-text-station-monitor');

      // The bus in basic data and in the bus list; the card.
      await page.goto(`${t.baseUrl}/basic/vehicle`);
      await gridLoaded(page, 'vehicle');
      const bus = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: text.plate });
      for (const value of [text.vehicleModel, text.vehicleSelfNumber]) await showsLiterally(page, value, bus);
      await nothingInjected(page, 'the vehicle grid');
      await page.goto(`${t.baseUrl}/operation/busList`);
      const filter = page.locator('.ant-pro-query-filter');
      await filter.getByLabel('关键字').fill(text.plate);
      await filter.getByRole('button', { name: /查\s*询/ }).click();
      await showsLiterally(page, text.vehicleSelfNumber, page.locator('.ant-table-tbody'));
      await nothingInjected(page, 'the bus list');
      await page.goto(`${t.baseUrl}/basic/cardConfig`);
      await gridLoaded(page, 'card');
      await showsLiterally(page, text.cardholder, page.locator('.ant-table-tbody'));
      await nothingInjected(page, 'the card grid');

      // A message template: the server keeps the rich text but nothing that runs; the name stays text.
      const token = await apiToken(t, ACCOUNTS.admin);
      const msg = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const res = await fetch(`${t.services.msgUrl}/ms/m1/msg/${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answer = await res.text();
        assert.ok(res.ok, `${method} ${path}: ${res.status} ${answer}`);
        return JSON.parse(answer) as T;
      };
      const config = await msg<{ id: number }>('POST', 'config', {
        configName: `<b>站内信</b> ${run}`,
        fullName: '站内信',
        channel: 'WEBSOCKET',
        settings: {},
      });
      const template = await msg<{ id: number }>('POST', 'template', {
        configId: config.id,
        templateName: text.template,
        type: '0',
        content: '<p onclick="alert(6)">停止 <img src="x" onerror="alert(7)"><script>alert(8)</script></p>',
      });
      const stored = await msg<{ id: number; content: string | null }[]>(
        'GET',
        `template/group/${config.id}`,
      );
      assert.equal(
        stored.find((row) => row.id === template.id)?.content,
        '<p>停止 <img src="x" /></p>',
        'the stored rich text has nothing that runs',
      );
      await page.goto(`${t.baseUrl}/msg/template`);
      const templateRow = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: text.template });
      await templateRow.waitFor();
      await templateRow.getByRole('button', { name: '查看' }).click();
      await page.locator('.ant-modal .ProseMirror').waitFor();
      await nothingInjected(page, 'the template details');
      await t.screenshot(page, 'user-text-template');

      assert.deepEqual(dialogs, [], 'no script ran');
    },
  },
];
