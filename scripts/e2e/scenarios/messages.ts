/**
 * The message centre in the console: configs, templates (rich text and parameters), groups, event rules
 * with their send log, alerts; and the realtime side: a real charging stop (simulated pile -> gateway ->
 * bus -> msg-center -> STOMP) pops up a stop notice, lands in the bell and the inbox marks it read.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import type { Page } from 'playwright-core';
import { DEMO_PILE_PASSWORD } from '../../demo-depot';
import {
  ACCOUNTS,
  eventually,
  openFromMenu,
  seedRunDemoDepot,
  signIn,
  storedSession,
  visible,
  type Scenario,
  type ScenarioContext,
} from './support';

const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

/**
 * Picks `label` in the antd select whose input has id `id` inside the open dialog, and checks that the
 * select shows it: a click that lands while another list is still closing is tried again.
 */
async function choose(page: Page, id: string, label: string): Promise<void> {
  const select = modal(page).locator('.ant-select', { has: page.locator(`#${id}`) });
  for (let attempt = 1; ; attempt++) {
    await modal(page).locator(`#${id}`).click({ force: true });
    try {
      // The list of this select (not one closed a moment ago that is still fading out). On a loaded
      // machine the click may land while the dialog still moves and open nothing: then try again.
      await page
        .locator('.ant-select-dropdown:visible', { has: page.locator(`#${id}_list`) })
        .locator('.ant-select-item-option', { hasText: label })
        .first()
        .click({ timeout: 5000 });
      await select
        .locator('.ant-select-selection-item', { hasText: label })
        .first()
        .waitFor({ timeout: 2000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      // Close any open list without closing the dialog (Escape would close the dialog).
      await modal(page).locator('.ant-modal-title').click();
    }
  }
}

/**
 * Presses the page's add button until the dialog titled `title` is open: the search form of the grid
 * settles its layout after the first data arrives, and a click during that move can miss the button.
 */
async function openAddDialog(page: Page, title: string): Promise<void> {
  await page.locator('.ant-table-tbody').first().waitFor();
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId('msg-add').click();
    try {
      await modal(page).locator('.ant-modal-title', { hasText: title }).waitFor({ timeout: 3000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function saveDialog(page: Page): Promise<void> {
  await modal(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await visible(page, '添加成功');
  await modal(page).waitFor({ state: 'detached' });
}

/** The grid of the page shows a row containing `text`. */
async function rowWith(page: Page, text: string): Promise<void> {
  await page.locator('.ant-table-tbody tr.ant-table-row', { hasText: text }).first().waitFor();
}

/** A call to msg-center as the signed-in user of `page` (for fixtures a scenario needs in place). */
async function msgApi<T>(
  page: Page,
  t: ScenarioContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const session = await storedSession(page);
  assert.ok(session?.accessToken, 'signed in');
  const response = await fetch(`${t.services.msgUrl}/ms/m1/msg/${path}`, {
    method,
    headers: { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export const messagesScenarios: Scenario[] = [
  {
    name: 'message centre: admin adds a config and a template (required messages, rich text, parameters) and sees them listed',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      const tag = randomBytes(3).toString('hex');

      // Config: an in-site message channel needs no settings.
      await openFromMenu(page, '消息管理', '消息配置', '/msg/config');
      await openAddDialog(page, '新增配置');
      await modal(page).locator('#configName').fill(`E2E 站内信 ${tag}`);
      await modal(page).locator('#fullName').fill('充电告警');
      await choose(page, 'channel', '站内信');
      await saveDialog(page);
      await rowWith(page, `E2E 站内信 ${tag}`);
      await t.screenshot(page, 'msg-config-zh-CN');

      // Template: required messages first, then rich text with a variable and two parameters.
      await openFromMenu(page, '消息管理', '消息模板', '/msg/template');
      await openAddDialog(page, '新增模板');
      await modal(page)
        .getByRole('button', { name: /确\s?定/ })
        .click();
      await visible(page, '请选择配置ID');
      await visible(page, '请输入模板名称');
      await choose(page, 'configId', `E2E 站内信 ${tag}`);
      await modal(page).locator('#templateName').fill(`E2E 异常停止 ${tag}`);
      await modal(page).locator('.ProseMirror').click();
      await page.keyboard.type('充电桩 ');
      await modal(page).locator('.ant-tag', { hasText: '${pile}' }).click();
      await page.keyboard.type(' 异常停止，原因：${reason}');
      await modal(page).locator('[data-testid="variables-used"]', { hasText: '${reason}' }).waitFor();
      const kv = modal(page).getByTestId('key-value-editor');
      await kv.getByTestId('kv-add').click();
      await visible(page, 'key不能为空');
      await kv.getByTestId('kv-new-key').fill('pile');
      await kv.getByTestId('kv-new-value').fill('未知');
      await kv.getByTestId('kv-add').click();
      await kv.getByTestId('kv-new-key').fill('pile');
      await kv.getByTestId('kv-add').click();
      await visible(page, 'key不能重复');
      await kv.getByTestId('kv-new-key').fill('code');
      await kv.getByTestId('kv-new-value').fill('${reasonCode}');
      await kv.getByTestId('kv-add').click();
      await t.screenshot(page, 'msg-template-dialog-zh-CN');
      await saveDialog(page);
      await rowWith(page, `E2E 异常停止 ${tag}`);
      const row = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: `E2E 异常停止 ${tag}` });
      assert.match((await row.textContent()) ?? '', /充电桩 \$\{pile\} 异常停止，原因：\$\{reason\}/);
      // jsonb keeps its own key order
      for (const pair of ['"pile":"未知"', '"code":"${reasonCode}"'])
        assert.ok((await row.textContent())?.includes(pair), `parameters as JSON: ${pair}`);
      await t.screenshot(page, 'msg-template-zh-CN');
      await row.getByRole('button', { name: '查看' }).click();
      await visible(page, '模板详情');
      assert.equal(await modal(page).locator('#templateName').isDisabled(), true, 'details are read-only');
      await t.screenshot(page, 'msg-template-details-zh-CN');
      // The close button, not Escape: the focused rich-text editor may keep the key to itself.
      await modal(page).locator('.ant-modal-close').click();
      await modal(page).waitFor({ state: 'detached' });
    },
  },
  {
    name: 'message centre: admin adds a receiver group, an event rule and an alert and sees them listed',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      const tag = randomBytes(3).toString('hex');
      // The template the rule sends (the first scenario adds one through the dialog).
      const config = await msgApi<{ id: number }>(page, t, 'POST', 'config', {
        configName: `E2E 规则配置 ${tag}`,
        fullName: '站内信',
        channel: 'WEBSOCKET',
        settings: {},
      });
      await msgApi(page, t, 'POST', 'template', {
        configId: config.id,
        templateName: `E2E 规则模板 ${tag}`,
        type: '0',
        content: '<p>充电桩 ${pile} 异常停止</p>',
      });

      // Group of the operator staff role.
      await openFromMenu(page, '消息管理', '消息分组', '/msg/group');
      await openAddDialog(page, '新增分组');
      await modal(page).locator('#name').fill(`E2E 值班组 ${tag}`);
      await modal(page)
        .getByRole('button', { name: /确\s?定/ })
        .click();
      await visible(page, '请至少选择一个接收人');
      await choose(page, 'memberIds', 'Operator staff');
      await modal(page).locator('.ant-modal-title').click(); // closes the multiple select's list
      await saveDialog(page);
      await rowWith(page, `E2E 值班组 ${tag}`);
      const groupRow = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: `E2E 值班组 ${tag}` });
      assert.ok((await groupRow.textContent())?.includes('Operator staff'), 'members by name');
      await t.screenshot(page, 'msg-group-zh-CN');

      // Event rule: abnormal stops -> the template to the group, in-site message, emergency, 5 minutes.
      await openFromMenu(page, '消息管理', '事件配置', '/msg/event');
      await openAddDialog(page, '新增事件');
      await modal(page).locator('#name').fill(`E2E 异常停止规则 ${tag}`);
      const condition = modal(page).getByTestId('condition-editor');
      await condition.getByTestId('kv-new-key').fill('stopKind');
      await condition.getByTestId('kv-new-value').fill('abnormal');
      await condition.getByTestId('kv-add').click();
      await choose(page, 'templateId', `E2E 规则模板 ${tag}`);
      await choose(page, 'groupId', `E2E 值班组 ${tag}`);
      await modal(page).locator('.ant-checkbox-wrapper', { hasText: '站内信' }).click();
      await choose(page, 'level', '紧急');
      await choose(page, 'frequency', '5 分钟');
      await saveDialog(page);
      await rowWith(page, `E2E 异常停止规则 ${tag}`);
      const ruleRow = page.locator('.ant-table-tbody tr.ant-table-row', {
        hasText: `E2E 异常停止规则 ${tag}`,
      });
      for (const text of [
        '充电结束',
        '{"stopKind":"abnormal"}',
        `E2E 值班组 ${tag}`,
        '站内信',
        '紧急',
        '5 分钟',
      ])
        assert.ok((await ruleRow.textContent())?.includes(text), `rule row shows ${text}`);
      await t.screenshot(page, 'msg-event-zh-CN');
      await page.getByRole('tab', { name: '发送记录' }).click();
      await page.getByTestId('msg-send-log').waitFor();
      await t.screenshot(page, 'msg-send-log-zh-CN');

      // Alert: an HTTP health check, kept disabled so it sends nothing during the run.
      await openFromMenu(page, '消息管理', '告警配置', '/msg/alerts');
      await openAddDialog(page, '新增告警');
      await modal(page).locator('#name').fill(`E2E 健康检查 ${tag}`);
      await choose(page, 'alertGroup', 'HTTP');
      await choose(page, 'jobType', 'HTTP');
      await modal(page).locator('#target').fill(`${t.services.msgUrl}/health`);
      await choose(page, 'expression', '<=');
      await modal(page).locator('#threshold').fill('0');
      await modal(page).locator('.ant-checkbox-wrapper', { hasText: '站内信' }).click();
      await modal(page).locator('#enabled').click();
      await saveDialog(page);
      await rowWith(page, `E2E 健康检查 ${tag}`);
      const alertRow = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: `E2E 健康检查 ${tag}` });
      for (const text of ['HTTP', '<= 0', '停用'])
        assert.ok((await alertRow.textContent())?.includes(text), `alert row shows ${text}`);
      await t.screenshot(page, 'msg-alerts-zh-CN');
    },
  },
  {
    name: 'message centre: a real abnormal stop pops up a stop notice over STOMP, the bell and inbox mark it read, the send log shows the delivery',
    async run(t) {
      // The demo depot (piles and cards) in the run's database; the gateway picks it up within 2 s.
      await seedRunDemoDepot(t, 'e2e-messages');

      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      const tag = randomBytes(3).toString('hex');
      // An event rule of its own: abnormal stops -> in-site message to the operator staff role.
      const roles = await msgApi<{ id: number; name: string }[]>(page, t, 'GET', 'receiver/role');
      const operatorRole = roles.find((r) => r.name === 'Operator staff');
      assert.ok(operatorRole, 'operator staff role');
      const config = await msgApi<{ id: number }>(page, t, 'POST', 'config', {
        configName: `E2E 推送 ${tag}`,
        fullName: '站内信',
        channel: 'WEBSOCKET',
        settings: {},
      });
      const template = await msgApi<{ id: number }>(page, t, 'POST', 'template', {
        configId: config.id,
        templateName: `E2E 停止通知 ${tag}`,
        type: '0',
        content: '<p>充电桩 ${pile} 的 ${gun} 号枪异常停止：${reason}</p>',
        parameters: {},
      });
      const group = await msgApi<{ id: number }>(page, t, 'POST', 'group', {
        name: `E2E 运营 ${tag}`,
        type: 'ROLE',
        memberIds: [operatorRole.id],
      });
      await msgApi(page, t, 'POST', 'event', {
        name: `E2E 停止推送 ${tag}`,
        eventType: 'transaction.stopped',
        condition: { stopKind: 'abnormal' },
        templateId: template.id,
        groupId: group.id,
        channels: [4],
        level: 'EMERGENCY',
      });

      // Spec §4: stop notices are subscribed when a token exists on load: reload once signed in, and
      // wait for the connection to ask for the unread messages.
      const connected = page.waitForResponse((r) => new URL(r.url()).pathname === '/ms/m1/msg/inbox/unread');
      await page.reload();
      await connected;
      await page.getByTestId('header-notice-slot').waitFor();

      const pile = new SimulatedPile({
        url: t.services.ocppUrl,
        chargePointId: 'DEPOT-B-10',
        password: DEMO_PILE_PASSWORD,
        connectors: 2,
        timeScale: 60,
        meterIntervalMs: 500,
        bootRetryMs: 500,
      });
      try {
        await eventually(() => pile.start(), 15_000);
        await pile.startSession(1, 'BUS0040', { autoStop: false });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await pile.stopSession(1, 'EmergencyStop');
        await pile.drained();
      } finally {
        await pile.stop();
      }

      // The pop-up: titled per type, the message names the pile, dismissable.
      const notice = page.getByTestId('stop-notice').filter({ hasText: '充电异常停止告警' });
      await notice.waitFor({ timeout: 15_000 });
      assert.ok((await notice.textContent())?.includes('DEPOT-B-10'), 'the notice names the pile');
      await t.screenshot(page, 'stop-notice-zh-CN');

      // The bell counts the inbox row the abnormal stop left; the popover lists it.
      const bell = page.locator('button[aria-label="消息通知"]');
      await eventually(async () => assert.match((await bell.textContent()) ?? '', /[1-9]/), 20_000);
      await notice.getByTestId('stop-notice-dismiss').click();
      await notice.waitFor({ state: 'detached' });
      await bell.click();
      await visible(page, '站内消息');
      await page.getByTestId('notice-item').filter({ hasText: '充电异常停止告警' }).first().waitFor();
      await t.screenshot(page, 'notice-bell-zh-CN');
      await page.getByRole('button', { name: '查看更多' }).click();

      // The inbox: today's range, the row unread; tick it, mark read, then it is read.
      const inbox = page.locator('.ant-modal', { hasText: '站内信' });
      const inboxRow = inbox.locator('tbody tr.ant-table-row', { hasText: 'DEPOT-B-10' }).first();
      await inboxRow.waitFor();
      assert.ok((await inboxRow.textContent())?.includes('未读'), 'unread tag');
      await inboxRow.locator('input[type="checkbox"]').check();
      await inbox.getByRole('button', { name: '标记已读' }).click();
      await visible(page, '操作成功');
      await eventually(async () => assert.ok((await inboxRow.textContent())?.includes('已读')), 20_000);
      assert.ok(!(await inboxRow.textContent())?.includes('未读'), 'no longer unread');
      await t.screenshot(page, 'inbox-zh-CN');
      await inbox.locator('.ant-modal-close').click();
      await inbox.waitFor({ state: 'hidden' });

      // The event rule delivered an in-site message to the operator: the send log says so.
      await openFromMenu(page, '消息管理', '事件配置', '/msg/event');
      await page.getByRole('tab', { name: '发送记录' }).click();
      const sent = page
        .getByTestId('msg-send-log')
        .locator('.ant-table-tbody tr.ant-table-row', { hasText: `E2E 停止通知 ${tag}` })
        .first();
      await eventually(async () => {
        await page.getByTestId('msg-send-log').getByTestId('msg-query').click();
        await sent.waitFor({ timeout: 2000 });
        assert.ok((await sent.textContent())?.includes('成功'), 'delivered');
      }, 30_000);
      assert.ok((await sent.textContent())?.includes('站内信'), 'in-site channel');
      await t.screenshot(page, 'msg-send-log-delivered-zh-CN');
    },
  },
];
