/**
 * Basic data in the console (features/assets): an administrator creates a station with the map
 * coordinate picker, a host and a gun, and exports the station list as .xlsx; batch host actions need a
 * selection and a pile the gateway turned away is registered with one click; a maintainer sees what the
 * role allows; and a screenshot of every basic-data page in both languages.
 */
import ExcelJS from 'exceljs';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import {
  ACCOUNTS,
  adminApi,
  eventually,
  pathOf,
  seedRunDemoDepot,
  signIn,
  stationBody,
  visible,
  type Scenario,
  type ScenarioContext,
} from './support';

type Basics = {
  run: string;
  regionId: number;
  regionName: string;
  labels: Record<string, string>;
  labelIds: number[];
  makerName: string;
};

/** A region, a label of every category and a pile manufacturer for the forms to choose from. */
async function basics(t: ScenarioContext): Promise<Basics> {
  const post = await adminApi(t);
  const run = randomBytes(3).toString('hex').toUpperCase();
  const regionName = `鼓楼区 ${run}`;
  const region = await post('/api/region', {
    name: regionName,
    areaCode: String(350100 + Math.floor(Math.random() * 600000)),
  });
  const labels: Record<string, string> = {};
  const labelIds: number[] = [];
  for (const type of ['payment', 'nationalStandard', 'chargingType', 'stationType']) {
    labels[type] = `${type}-${run}`;
    labelIds.push((await post('/api/label', { type, name: labels[type] })).id);
  }
  const makerName = `PileCo ${run}`;
  await post('/api/manufacturer', {
    name: makerName,
    type: 'pile',
    contactName: 'Zhang',
    contactNumber: '0591-8888',
  });
  return { run, regionId: region.id, regionName, labels, labelIds, makerName };
}

/** Picks the option `text` of the antd Select whose input has id `id` (ProForm ids are field names). */
async function choose(page: Page, id: string, text: string): Promise<void> {
  const input = page.locator(`#${id}`);
  await input.click();
  await input.fill(text);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click();
}

/** Picks an option of a label select (LabelsInput) by its test id. */
async function chooseLabel(page: Page, category: string, text: string): Promise<void> {
  const select = page.getByTestId(`labels-${category}`);
  await select.click();
  await select.locator('input').fill(text);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

/** Waits for a basic-data grid to show (and finish loading). */
async function grid(page: Page, kind: string): Promise<void> {
  await page.getByTestId(`grid-${kind}`).waitFor();
  await page.locator(`[data-testid="grid-${kind}"] .ant-spin-spinning`).waitFor({ state: 'detached' });
}

const BASIC_PAGES = [
  ['station', 'station'],
  ['host', 'pile'],
  ['gun', 'gun'],
  ['vehicle', 'vehicle'],
  ['cardConfig', 'card'],
  ['company', 'company'],
  ['branch', 'branch'],
  ['fleet', 'fleet'],
  ['line', 'line'],
  ['transformer', 'transformer'],
  ['manufacturer', 'manufacturer'],
  ['operator', 'operator'],
  ['region', 'region'],
  ['label', 'label'],
  ['parkingSpace', 'parkingSpace'],
  ['camera', 'camera'],
  ['alarmCode', 'alarmCode'],
  ['stopCode', 'stopCode'],
  ['maintenancePersonnel', 'maintenancePersonnel'],
  ['peakTime', 'peakTime'],
  ['stationFee', 'stationFee'],
] as const;

export const assetsScenarios: Scenario[] = [
  {
    name: 'assets: admin creates a station with the coordinate picker and exports the stations as .xlsx',
    async run(t) {
      const b = await basics(t);
      const page = await t.newPage({ locale: 'en-US' });
      await signIn(page, t, ACCOUNTS.admin);
      await page.goto(`${t.baseUrl}/basic/station`);
      await grid(page, 'station');

      // Station: the §5 rules speak first, then every field, the map and the labels.
      await page.getByTestId('add-station').click();
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page, 'Number cannot be empty');
      await visible(page, 'Address cannot be empty');
      await visible(page, 'At least one label per category');
      const stationName = `E2E Depot ${b.run}`;
      await page.locator('#number').fill(`S${b.run}`);
      await page.locator('#name').fill(stationName);
      await choose(page, 'regionId', b.regionName);
      await page.locator('#address').fill('8 Beihuan Road, Fuzhou');
      const map = page.getByTestId('coordinate-picker').locator('.leaflet-container');
      await map.scrollIntoViewIfNeeded();
      await visible(page, 'Offline base map');
      const box = (await map.boundingBox())!;
      const pick = async (x: number, y: number) => {
        await map.click({ position: { x: box.width * x, y: box.height * y } });
        return {
          longitude: Number(await page.locator('#longitude').inputValue()),
          latitude: Number(await page.locator('#latitude').inputValue()),
        };
      };
      const westSouth = await pick(0.3, 0.7);
      const eastNorth = await pick(0.7, 0.3);
      // Around Hefei (the map's centre without a position): a click further right is further east,
      // a click further up further north.
      for (const p of [westSouth, eastNorth]) {
        assert.ok(
          Math.abs(p.longitude - 117.23) < 1 && Math.abs(p.latitude - 31.82) < 1,
          `near Hefei: ${JSON.stringify(p)}`,
        );
      }
      assert.ok(eastNorth.longitude > westSouth.longitude, 'a click to the right is further east');
      assert.ok(eastNorth.latitude > westSouth.latitude, 'a click higher up is further north');
      await page.getByText('Longitude cannot be empty').waitFor({ state: 'detached' });
      for (const category of ['payment', 'nationalStandard', 'chargingType'])
        await chooseLabel(page, category, b.labels[category]);
      await t.screenshot(page, 'assets-station-form-en-US');
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page, 'Added successfully');
      await visible(page, stationName);

      // The station list as .xlsx.
      await page.goto(`${t.baseUrl}/basic/station`);
      await grid(page, 'station');
      const download = page.waitForEvent('download');
      await page.getByTestId('export-station').click();
      const file = await download;
      assert.match(file.suggestedFilename(), /\.xlsx$/);
      const target = join(t.downloadsDir, `assets-${file.suggestedFilename()}`);
      await file.saveAs(target);
      const bytes = readFileSync(target);
      assert.equal(bytes.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'an xlsx is a zip file');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const texts: string[] = [];
      workbook.worksheets[0].eachRow((row) => row.eachCell((cell) => void texts.push(cell.text)));
      assert.ok(texts.includes('Number') && texts.includes(stationName), 'the sheet has the new station');
      await visible(page, /Exported: /);
    },
  },
  {
    name: 'assets: admin adds a host with a generated OCPP password and a gun with its QR code',
    async run(t) {
      const b = await basics(t);
      const post = await adminApi(t);
      const stationName = `E2E Host Depot ${b.run}`;
      await post(
        '/api/station',
        stationBody({ number: `HS${b.run}`, name: stationName, regionId: b.regionId, labelIds: b.labelIds }),
      );
      const page = await t.newPage({ locale: 'en-US' });
      await signIn(page, t, ACCOUNTS.admin);
      // Host at the station, with a generated OCPP password.
      await page.goto(`${t.baseUrl}/basic/host`);
      await grid(page, 'pile');
      await page.getByTestId('add-pile').click();
      await choose(page, 'stationId', stationName);
      await page.locator('#name').fill(`Host ${b.run}`);
      await page.locator('#number').fill(`H${b.run}`);
      await page.locator('#chargePointId').fill(`E2E-${b.run}`);
      await page.getByTestId('host-generate-password').click();
      assert.equal((await page.locator('#ocppPassword').inputValue()).length, 24);
      await choose(page, 'type', 'Alternating current (AC)');
      await page.locator('#maxPowerW').fill('240000');
      await page.locator('#ratedPowerW').fill('300000');
      await choose(page, 'manufacturerId', b.makerName);
      await page.getByRole('button', { name: 'OK' }).click();
      // The api's rule comes back under the field.
      await visible(page, 'Rated power (W) must not exceed maximum power (W)');
      await page.locator('#ratedPowerW').fill('240000');
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page, 'Added successfully');
      await visible(page, `E2E-${b.run}`);
      await t.screenshot(page, 'assets-hosts-en-US');

      // Gun of the host, and its QR code.
      await page.goto(`${t.baseUrl}/basic/gun`);
      await grid(page, 'gun');
      await page.getByTestId('add-gun').click();
      await choose(page, 'pileId', `E2E-${b.run}`);
      await page.locator('#name').fill('Gun 1');
      await page.locator('#channelNumber').fill('1');
      await page.locator('#qrCode').fill(`https://qr.example/${b.run}/1`);
      await choose(page, 'connectorType', 'DC gun');
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page, 'Added successfully');
      await page.getByTestId('gun-qr').first().click();
      await page.getByTestId('gun-qr-image').waitFor();
      await page.waitForTimeout(500); // the dialog's opening animation
      await t.screenshot(page, 'assets-gun-qr-en-US');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'assets: batch host actions need a selection; an unknown pile is registered with one click',
    async run(t) {
      const chargePointId = `UNKNOWN-${randomBytes(3).toString('hex').toUpperCase()}`;
      // A pile nobody registered knocks at the gateway and is turned away (the gateway records it).
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`${t.services.ocppUrl}/${chargePointId}`, ['ocpp1.6'], {
          headers: {
            authorization: `Basic ${Buffer.from(`${chargePointId}:whatever-password-1`).toString('base64')}`,
          },
        });
        ws.once('unexpected-response', () => resolve());
        ws.once('error', () => resolve());
        ws.once('open', () => {
          ws.close();
          resolve();
        });
      });
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await page.goto(`${t.baseUrl}/station/ChargEquipManage/index`);
      await grid(page, 'pile');
      await page.getByTestId('host-batch-enable').click();
      await visible(page, '至少选择一个主机');
      await page.getByTestId('host-batch-delivery').click();
      await visible(page, '至少选择一个主机');
      await page.getByRole('tab', { name: '未登记的充电桩' }).click();
      const register = page.getByTestId(`register-${chargePointId}`);
      // The attempt is recorded as the handshake is refused: reopen the tab until it lists it.
      await eventually(async () => {
        if (await register.isVisible()) return;
        await page.getByRole('tab', { name: '充电主机' }).click();
        await page.getByRole('tab', { name: '未登记的充电桩' }).click();
        await register.waitFor({ timeout: 1_000 });
      }, 15_000);
      await t.screenshot(page, 'assets-unknown-piles-zh-CN');
      await register.click();
      const dialog = page.getByRole('dialog').filter({ hasText: `登记充电桩 ${chargePointId}` });
      await dialog.waitFor();
      // A click that lands while the dialog is still opening does nothing: click again while it is open.
      // The issued password (a second dialog) is the proof that the pile was registered, once.
      await eventually(async () => {
        if (await dialog.isVisible()) await dialog.getByRole('button', { name: /确\s?定/ }).click();
        await page.getByTestId('issued-password').waitFor({ timeout: 2_000 });
      }, 15_000);
      const password = (await page.getByTestId('issued-password').textContent())?.trim() ?? '';
      assert.ok(password.length >= 16, `a password of ${password.length} characters is shown once`);
      await page.getByTestId('issued-password-ok').click();
      await page.getByRole('tab', { name: '充电主机' }).click();
      await grid(page, 'pile');
      await visible(page, chargePointId);
    },
  },
  {
    name: 'assets: a maintainer sees what the role allows',
    async run(t) {
      await seedRunDemoDepot(t, 'e2e-assets-maintainer'); // stations whose fee settings are listed below
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.maintainer);
      // Equipment: stations, hosts, parking spaces and cameras can be added.
      for (const [path, kind] of [
        ['station', 'station'],
        ['host', 'pile'],
        ['parkingSpace', 'parkingSpace'],
        ['camera', 'camera'],
      ] as const) {
        await page.goto(`${t.baseUrl}/basic/${path}`);
        await grid(page, kind);
        await page.getByTestId(`add-${kind}`).waitFor();
      }
      await page.getByTestId('import-camera').waitFor();
      // Reference data and cards: read and export only.
      for (const [path, kind] of [
        ['alarmCode', 'alarmCode'],
        ['company', 'company'],
        ['cardConfig', 'card'],
      ] as const) {
        await page.goto(`${t.baseUrl}/basic/${path}`);
        await grid(page, kind);
        await page.getByTestId(`export-${kind}`).waitFor();
        assert.equal(await page.getByTestId(`add-${kind}`).count(), 0, `no add button on ${path}`);
        assert.equal(await page.getByTestId(`import-${kind}`).count(), 0, `no import button on ${path}`);
      }
      await t.screenshot(page, 'assets-maintainer-cards-zh-CN');
      await page.goto(`${t.baseUrl}/basic/stationFee`);
      await grid(page, 'stationFee');
      // Rows shown (the demo depot's stations), and none of them editable.
      await page.locator('.ant-table-row').first().waitFor();
      assert.equal(await page.locator('[data-testid^="edit-"]').count(), 0, 'fee settings are read-only');
      assert.equal(pathOf(page), '/basic/stationFee');
    },
  },
  // Four pages a scenario: each page is a full load of the console, and a scenario has 90 s.
  ...(['zh-CN', 'en-US'] as const).flatMap((locale) =>
    Array.from({ length: Math.ceil(BASIC_PAGES.length / 4) }, (_, part) =>
      BASIC_PAGES.slice(part * 4, part * 4 + 4),
    ).map((pages, part, parts): Scenario => ({
      name: `assets: screenshots of the basic-data pages in ${locale} (${part + 1}/${parts.length})`,
      async run(t) {
        const page = await t.newPage({ locale });
        await signIn(page, t, ACCOUNTS.admin);
        for (const [path, kind] of pages) {
          await page.goto(`${t.baseUrl}/basic/${path}`);
          await grid(page, kind);
          await t.screenshot(page, `assets-${path}-${locale}`);
        }
      },
    })),
  ),
  {
    name: 'assets: the §5 messages in Chinese, and the station information page',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await page.goto(`${t.baseUrl}/basic/operator`);
      await grid(page, 'operator');
      await page.getByTestId('add-operator').click();
      await page.locator('#creditCode').fill('abc');
      await page
        .getByRole('button', { name: '确 定' })
        .or(page.getByRole('button', { name: '确定' }))
        .first()
        .click();
      for (const message of [
        '编号不能为空',
        '名称不能为空',
        '联系人不能为空',
        '固定电话不能为空',
        '注册地址不能为空',
      ])
        await visible(page, message);
      await visible(page, '统一社会信用代码必须为 18 个字符');
      await t.screenshot(page, 'assets-operator-validation-zh-CN');
      await page.goto(`${t.baseUrl}/station/stationInfoManage/components/addForm`);
      await page.getByTestId('coordinate-picker').waitFor();
      await page.locator('.ant-card-head-title', { hasText: '新增充电站' }).waitFor();
      await t.screenshot(page, 'assets-station-info-form-zh-CN');
    },
  },
];
