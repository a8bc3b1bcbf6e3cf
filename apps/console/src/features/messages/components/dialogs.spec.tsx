import { fireEvent } from '@testing-library/react';
import type { MsgAlertDto, MsgConfigDto, MsgGroupDto } from '@voltdepot/shared-contracts';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../app/providers/i18n';
import { stubApi, type FakeHandler } from '../../../test/fakeApi';
import { memoryStorage } from '../../../test/memoryStorage';
import { waitFor } from '../../../test/render';
import { dictionaryOptions, MSG_DICTIONARIES, type MsgDictCode } from '../hooks/useDictionaries';
import { renderInApp } from '../../../test/renderInApp';
import { AlertDialog } from './AlertDialog';
import { ConfigDialog } from './ConfigDialog';
import { EventRuleDialog } from './EventRuleDialog';
import { GroupDialog } from './GroupDialog';

// Whole antd/ProComponents dialogs in jsdom take seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

// The dialogs get their options from the page: here the dictionary answer for event_channel and the
// contract values for the rest, with the en-US labels.
const { t } = createI18n({ locale: 'en-US', storage: memoryStorage() });
const options = dictionaryOptions(t, Object.keys(MSG_DICTIONARIES) as MsgDictCode[], [
  {
    id: 1,
    code: 'event_channel',
    name: 'Event channel',
    value: null,
    children: ['SMS', 'Email', 'WeChat', 'DingTalk', 'In-site message'].map((name, i) => ({
      id: 10 + i,
      code: String(i),
      name,
      value: String(i),
      children: [],
    })),
  },
]);

async function show(ui: React.ReactNode, routes: Record<string, FakeHandler> = {}) {
  const api = stubApi(routes);
  await renderInApp(ui);
  await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull(), 20_000);
  return api;
}

const body = () => document.body.textContent ?? '';
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const ok = () =>
  fireEvent.click(
    [...document.querySelectorAll('.ant-modal button')].find((b) => b.textContent === 'OK') as HTMLElement,
  );
const input = (id: string) => document.querySelector(`#${id}`) as HTMLInputElement;
const typeInto = (id: string, value: string) => fireEvent.change(input(id), { target: { value } });

async function choose(fieldId: string, label: string) {
  const select = input(fieldId).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') as HTMLElement);
  const find = () =>
    [
      ...document.querySelectorAll(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
      ),
    ].find((o) => o.textContent === label);
  await waitFor(() => expect(find()).toBeDefined());
  fireEvent.click(find() as HTMLElement);
}

const check = (label: string) => {
  const box = [...document.querySelectorAll('.ant-checkbox-wrapper')].find((w) => w.textContent === label);
  fireEvent.click(box?.querySelector('input') as HTMLInputElement);
};

describe('config dialog', () => {
  const stored: MsgConfigDto = {
    id: 3,
    configName: 'Depot SMS',
    fullName: 'Alarm SMS',
    channel: 'SMS',
    provider: 'ALIYUN',
    settings: { accessKeyId: 'AK1', accessKeySecret: '******', signName: 'Voltdepot' },
    status: 'DEFAULT',
    username: 'admin',
    createTime: '2026-03-01 08:00:00',
    updateTime: '2026-03-01 08:00:00',
  };

  it('requires name, message type and channel, then the settings the channel needs', async () => {
    const { calls } = await show(<ConfigDialog options={options} onClose={vi.fn()} onSaved={vi.fn()} />);
    ok();
    await waitFor(() =>
      expect(errors()).toEqual([
        'Please enter configuration name',
        'Please enter message type',
        'Please select channel',
      ]),
    );
    typeInto('configName', 'Mail');
    typeInto('fullName', 'Alarm mail');
    await choose('channel', 'Email');
    ok();
    await waitFor(() =>
      expect(errors()).toEqual(['SMTP host is required', 'Port is required', 'Sender address is required']),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('adds an e-mail config with only its settings', async () => {
    const onSaved = vi.fn();
    const { calls } = await show(<ConfigDialog options={options} onClose={vi.fn()} onSaved={onSaved} />, {
      'POST /ms/m1/msg/config': () => ({ id: 11 }),
    });
    typeInto('configName', ' Mail ');
    typeInto('fullName', 'Alarm mail');
    await choose('channel', 'Email');
    await waitFor(() => expect(input('settings_host')).not.toBeNull());
    typeInto('settings_host', 'smtp.example.com');
    typeInto('settings_port', '465');
    typeInto('settings_from', 'noreply@example.com');
    typeInto('settings_password', 'pw');
    ok();
    await waitFor(() => expect(body()).toContain('Added successfully'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      configName: 'Mail',
      fullName: 'Alarm mail',
      channel: 'EMAIL',
      provider: null,
      settings: {
        host: 'smtp.example.com',
        port: 465,
        secure: false,
        ignoreTLS: false,
        password: 'pw',
        from: 'noreply@example.com',
      },
      status: 'DEFAULT',
    });
    expect(onSaved).toHaveBeenCalled();
  });

  it('edits an SMS config: the masked secret goes back as the mask (kept by the server)', async () => {
    const { calls } = await show(
      <ConfigDialog config={stored} options={options} onClose={vi.fn()} onSaved={vi.fn()} />,
      {
        'PUT /ms/m1/msg/config/3': () => ({ id: 3 }),
      },
    );
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Modify config');
    typeInto('settings_signName', 'Voltdepot Ops');
    ok();
    await waitFor(() => expect(body()).toContain('Modified successfully'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      channel: 'SMS',
      provider: 'ALIYUN',
      settings: { accessKeyId: 'AK1', accessKeySecret: '******', signName: 'Voltdepot Ops' },
    });
  });

  it('edits a DingTalk robot: the webhook (it carries the token) is a masked secret sent back as the mask', async () => {
    const robot: MsgConfigDto = {
      ...stored,
      channel: 'DDTALK',
      provider: 'TEXT',
      settings: { webhook: '******', secret: '******' },
    };
    const { calls } = await show(
      <ConfigDialog config={robot} options={options} onClose={vi.fn()} onSaved={vi.fn()} />,
      { 'PUT /ms/m1/msg/config/3': () => ({ id: 3 }) },
    );
    expect(input('settings_webhook').type).toBe('password');
    ok();
    await waitFor(() => expect(body()).toContain('Modified successfully'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      channel: 'DDTALK',
      settings: { webhook: '******', secret: '******' },
    });
  });

  it('shows the server refusal (name taken) and stays open', async () => {
    const onSaved = vi.fn();
    await show(<ConfigDialog config={stored} options={options} onClose={vi.fn()} onSaved={onSaved} />, {
      'PUT /ms/m1/msg/config/3': () =>
        new Response(
          JSON.stringify({
            code: 'MSG_CONFIG_NAME_TAKEN',
            message: "A configuration named 'X' already exists",
          }),
          {
            status: 409,
            headers: { 'content-type': 'application/json' },
          },
        ),
    });
    ok();
    // The code is shown in the user's language (the request layer translates known codes).
    await waitFor(() => expect(body()).toContain('The configuration name is already taken'));
    expect(onSaved).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Modify config');
  });
});

describe('group dialog', () => {
  const roles = [
    { id: 1, name: 'Administrator' },
    { id: 2, name: 'Operator staff' },
  ];
  const users = [{ id: 5, name: 'Zhang San (zhangsan)' }];

  it('requires a name and, unless the type is NONE, at least one receiver', async () => {
    const { calls } = await show(
      <GroupDialog
        typeOptions={options.group_type}
        roles={roles}
        users={users}
        onClose={vi.fn()}
        onSaved={vi.fn()}
      />,
    );
    ok();
    await waitFor(() =>
      expect(errors()).toEqual(['Please enter group name', 'Please select at least one receiver']),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('adds a group of roles', async () => {
    const { calls } = await show(
      <GroupDialog
        typeOptions={options.group_type}
        roles={roles}
        users={users}
        onClose={vi.fn()}
        onSaved={vi.fn()}
      />,
      { 'POST /ms/m1/msg/group': () => ({ id: 4 }) },
    );
    typeInto('name', 'Night shift');
    await choose('memberIds', 'Operator staff');
    ok();
    await waitFor(() => expect(body()).toContain('Added successfully'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Night shift',
      type: 'ROLE',
      memberIds: [2],
      description: null,
    });
  });

  it('switching to users lists users and forgets the roles; NONE needs nobody', async () => {
    const stored: MsgGroupDto = {
      id: 8,
      name: 'Ops',
      type: 'ROLE',
      memberIds: [1],
      description: 'on call',
      username: 'admin',
      createTime: '2026-03-01 08:00:00',
      updateTime: '2026-03-01 08:00:00',
    };
    const { calls } = await show(
      <GroupDialog
        group={stored}
        typeOptions={options.group_type}
        roles={roles}
        users={users}
        onClose={vi.fn()}
        onSaved={vi.fn()}
      />,
      { 'PUT /ms/m1/msg/group/8': () => ({ id: 8 }) },
    );
    fireEvent.click(
      [...document.querySelectorAll('.ant-radio-wrapper')]
        .find((w) => w.textContent === 'By user')
        ?.querySelector('input') as HTMLElement,
    );
    await waitFor(() =>
      expect(document.querySelector('label[for="memberIds"]')?.textContent).toBe('Receiving users'),
    );
    await choose('memberIds', 'Zhang San (zhangsan)');
    fireEvent.click(
      [...document.querySelectorAll('.ant-radio-wrapper')]
        .find((w) => w.textContent === 'None')
        ?.querySelector('input') as HTMLElement,
    );
    await waitFor(() => expect(input('memberIds')).toBeNull());
    ok();
    await waitFor(() => expect(body()).toContain('Modified successfully'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Ops',
      type: 'NONE',
      memberIds: [],
      description: 'on call',
    });
  });
});

describe('event rule dialog', () => {
  it('requires a name and a channel; sends the condition as a map and the channels as numbers', async () => {
    const { calls } = await show(<EventRuleDialog options={options} onClose={vi.fn()} onSaved={vi.fn()} />, {
      'POST /ms/m1/msg/event': () => ({ id: 2 }),
    });
    ok();
    await waitFor(() =>
      expect(errors()).toEqual(['Please enter event name', 'Please select at least one channel']),
    );
    typeInto('name', 'Abnormal stops');
    const editor = document.querySelector('[data-testid="condition-editor"]') as HTMLElement;
    fireEvent.change(editor.querySelector('[data-testid="kv-new-key"]') as HTMLElement, {
      target: { value: 'stopKind' },
    });
    fireEvent.change(editor.querySelector('[data-testid="kv-new-value"]') as HTMLElement, {
      target: { value: 'abnormal' },
    });
    fireEvent.click(editor.querySelector('[data-testid="kv-add"]') as HTMLElement);
    check('In-site message');
    check('SMS');
    await choose('level', 'Emergency');
    await choose('frequency', 'Five minutes');
    ok();
    await waitFor(() => expect(body()).toContain('Added successfully'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Abnormal stops',
      eventType: 'transaction.stopped',
      condition: { stopKind: 'abnormal' },
      templateId: null,
      groupId: null,
      channels: [0, 4],
      level: 'EMERGENCY',
      frequency: 'FIVE_MINUTES',
      enabled: true,
    });
  });
});

describe('alert dialog', () => {
  it('requires name, group, job type, target and threshold', async () => {
    const { calls } = await show(<AlertDialog options={options} onClose={vi.fn()} onSaved={vi.fn()} />);
    ok();
    await waitFor(
      () =>
        expect(errors()).toEqual([
          'Please enter alert name',
          'Please select alert group',
          'Please select job type',
          'Please enter target',
          'Please enter threshold',
          'Please select at least one channel',
        ]),
      30_000, // a loaded machine renders six validation messages slowly
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  }, 90_000);

  it('edits a Kafka lag alert: LE threshold, channels and status', async () => {
    const stored: MsgAlertDto = {
      id: 6,
      name: 'Consumer lag',
      alertGroup: 'KAFKA',
      jobType: 'KAFKA',
      target: '127.0.0.1:9092',
      expression: 'GE',
      threshold: 1000,
      templateId: null,
      groupId: null,
      channels: [1],
      level: 'IMPORTANT',
      frequency: null,
      status: 'DEFAULT',
      enabled: true,
      lastValue: 12,
      lastCheckedAt: '2026-03-01 08:00:00',
      username: 'admin',
      createTime: '2026-03-01 08:00:00',
      updateTime: '2026-03-01 08:00:00',
    };
    const { calls } = await show(
      <AlertDialog alert={stored} options={options} onClose={vi.fn()} onSaved={vi.fn()} />,
      {
        'PUT /ms/m1/msg/alerts/6': () => ({ id: 6 }),
      },
    );
    await choose('expression', 'LE');
    typeInto('threshold', '250');
    check('DingTalk');
    ok();
    await waitFor(() => expect(body()).toContain('Modified successfully'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Consumer lag',
      alertGroup: 'KAFKA',
      jobType: 'KAFKA',
      target: '127.0.0.1:9092',
      expression: 'LE',
      threshold: 250,
      status: 'DEFAULT',
      templateId: null,
      groupId: null,
      channels: [1, 3],
      level: 'IMPORTANT',
      frequency: null,
      enabled: true,
    });
  });
});
