import { fireEvent } from '@testing-library/react';
import type { MsgTemplateDto } from '@voltdepot/shared-contracts';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { ALL_PERMISSIONS, renderInApp } from '../../../test/renderInApp';
import { TemplatePage } from './TemplatePage';

// Whole antd/ProComponents dialogs in jsdom take seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const row = (id: number, extra: Partial<MsgTemplateDto> = {}): MsgTemplateDto => ({
  id,
  configId: 7,
  templateName: `Template ${id}`,
  config: { configName: 'Depot mail', fullName: 'Alarm mail' },
  content: '<p>Pile <b>${pile}</b> stopped</p>',
  msgKey: `KEY_${id}`,
  type: '2',
  parameters: { pile: 'unknown' },
  username: 'admin',
  editable: true,
  createTime: '2026-03-01 08:00:00',
  updateTime: '2026-03-01 08:00:00',
  ...extra,
});

const dictionary = [
  {
    id: 1,
    code: 'message_type',
    name: 'Message template type',
    value: null,
    children: [
      { id: 2, code: '0', name: 'None', value: '0', children: [] },
      { id: 3, code: '1', name: 'Link', value: '1', children: [] },
      { id: 4, code: '2', name: 'Email', value: '2', children: [] },
    ],
  },
];

async function openPage(permissions: readonly string[], routes: Record<string, FakeHandler> = {}) {
  const api = stubApi({
    'GET /ms/m1/msg/dictionaries/dict/tree': () => dictionary,
    'GET /ms/m1/msg/config': () => [],
    'GET /ms/m1/msg/template/page/1/size/10': () => ({
      list: [row(1), row(2, { content: null, editable: false, parameters: {} })],
      total: 12,
    }),
    ...routes,
  });
  await renderInApp(<TemplatePage />, { permissions });
  await waitFor(() => expect(document.body.textContent).toContain('Template 2'), 20_000);
  return api;
}

const rows = () => [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')];
const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);
const buttonsIn = (tr: Element) => [...tr.querySelectorAll('button')];

describe('message template list', () => {
  it('loads the configs, asks the message_type dictionary and shows the spec columns', async () => {
    const { calls } = await openPage(ALL_PERMISSIONS);
    expect(calls.some((c) => c.path === '/ms/m1/msg/config')).toBe(true);
    expect(calls.find((c) => c.path === '/ms/m1/msg/dictionaries/dict/tree')?.query.get('code')).toBe(
      'message_type',
    );
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(headers).toEqual([
      'Sequence',
      'Config name',
      'Template name',
      'Type',
      'Template content',
      'Third-party identifier msgKey',
      'Parameters',
      'Last operator',
      'Actions',
    ]);
    expect(cells(rows()[0]).slice(0, 8)).toEqual([
      '1',
      'Depot mail',
      'Template 1',
      'Email',
      'Pile ${pile} stopped',
      'KEY_1',
      '{"pile":"unknown"}',
      'admin',
    ]);
    // N/A for empty content, {} for no parameters
    expect(cells(rows()[1]).slice(4, 7)).toEqual(['N/A', 'KEY_2', '{}']);
    expect(document.body.textContent).toContain('12 in total');
    // the search form: config name, template name, type; buttons query and add
    const labels = [...document.querySelectorAll('.ant-pro-query-filter .ant-form-item-label label')]
      .map((l) => l.textContent?.trim())
      .filter(Boolean);
    expect(labels).toEqual(['Config name', 'Template name', 'Type']);
    expect(document.querySelector('[data-testid="msg-query"]')?.textContent).toBe('Query');
    expect(document.querySelector('[data-testid="msg-add"]')?.textContent).toBe('Add');
  });

  it('row actions: view for all, delete disabled when the template is not editable', async () => {
    await openPage(ALL_PERMISSIONS);
    expect(buttonsIn(rows()[0]).map((b) => [b.textContent, b.disabled])).toEqual([
      ['View', false],
      ['Edit', false],
      ['Delete', false],
    ]);
    expect(buttonsIn(rows()[1]).map((b) => [b.textContent, b.disabled])).toEqual([
      ['View', false],
      ['Edit', false],
      ['Delete', true],
    ]);
  });

  it('without the button codes only view and query remain', async () => {
    await openPage(['msg:template']);
    expect(buttonsIn(rows()[0]).map((b) => b.textContent)).toEqual(['View']);
    expect(document.querySelector('[data-testid="msg-add"]')).toBeNull();
    expect(document.querySelector('[data-testid="msg-query"]')).not.toBeNull();
  });

  it('sends the search fields to the grid call', async () => {
    const { calls } = await openPage(ALL_PERMISSIONS);
    fireEvent.change(document.querySelector('#templateName') as HTMLInputElement, {
      target: { value: ' stop ' },
    });
    fireEvent.change(document.querySelector('#configName') as HTMLInputElement, {
      target: { value: 'mail' },
    });
    fireEvent.click(document.querySelector('[data-testid="msg-query"]') as HTMLElement);
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.path.endsWith('/template/page/1/size/10') && c.query.get('templateName') === 'stop',
        ),
      ).toBe(true),
    );
    const search = calls.filter((c) => c.path.endsWith('/template/page/1/size/10')).pop();
    expect(search?.query.get('configName')).toBe('mail');
  });

  it('delete: the spec confirmation, then deleted successfully and a reload', async () => {
    const { calls } = await openPage(ALL_PERMISSIONS, { 'DELETE /ms/m1/msg/template/1': () => true });
    fireEvent.click(buttonsIn(rows()[0])[2]);
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-confirm')?.textContent).toContain(
        'This operation will permanently delete the template, continue?',
      ),
    );
    expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('Prompt');
    const loadsBefore = calls.filter((c) => c.path.endsWith('/template/page/1/size/10')).length;
    fireEvent.click(
      [...document.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === 'OK')!,
    );
    await waitFor(() => expect(document.body.textContent).toContain('Deleted successfully'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/ms/m1/msg/template/1')).toBe(true);
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/template/page/1/size/10')).length).toBeGreaterThan(
        loadsBefore,
      ),
    );
  });

  it("delete refused by the server shows the refusal (its code translated), not 'Deleted successfully'", async () => {
    await openPage(ALL_PERMISSIONS, {
      'DELETE /ms/m1/msg/template/1': () =>
        json(
          { code: 'MSG_TEMPLATE_IN_USE', message: 'The template is used by 1 event or alert rule(s)' },
          409,
        ),
    });
    fireEvent.click(buttonsIn(rows()[0])[2]);
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).not.toBeNull());
    fireEvent.click(
      [...document.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === 'OK')!,
    );
    await waitFor(() =>
      expect(document.body.textContent).toContain('The template is in use and cannot be deleted'),
    );
    expect(document.body.textContent).not.toContain('Deleted successfully');
  });

  it('view opens the read-only details dialog', async () => {
    await openPage(ALL_PERMISSIONS);
    fireEvent.click(buttonsIn(rows()[0])[0]);
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Template details'),
    );
    expect((document.querySelector('.ant-modal #templateName') as HTMLInputElement).disabled).toBe(true);
    expect((document.querySelector('.ant-modal #templateName') as HTMLInputElement).value).toBe('Template 1');
  });
});
