import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { codesOf, renderInApp } from '../../../test/renderInApp';
import { ICCARD_PERMISSIONS } from '../permissions';
import { CustomersPage } from './CustomersPage';

const empty = () => ({ list: [], total: 0 });
const text = () => document.body.textContent ?? '';
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const button = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) as HTMLButtonElement;
const okButton = () =>
  [...document.querySelectorAll('.ant-modal-footer button')].find((b) =>
    /OK|确/.test(b.textContent ?? ''),
  ) as HTMLButtonElement;

async function open(
  locale: 'en-US' | 'zh-CN',
  tab: 'companies' | 'customers',
  routes: Record<string, FakeHandler> = {},
  submit = true,
) {
  const api = stubApi({
    'GET /api/iccard/company/page/1/size/10': empty,
    'GET /api/iccard/customer/page/1/size/10': empty,
    'GET /api/iccard/company/page/1/size/500': empty,
    'GET /api/iccard/customer/page/1/size/500': empty,
    ...routes,
  });
  await renderInApp(<CustomersPage />, { locale, permissions: codesOf(ICCARD_PERMISSIONS) });
  if (tab === 'customers') {
    const tabs = [...document.querySelectorAll('.ant-tabs-tab')];
    await act(async () => fireEvent.click(tabs[1]!));
  }
  const add = tab === 'companies' ? 'company-add' : 'customer-add';
  await waitFor(() => expect(button(add)).not.toBeNull());
  await act(async () => fireEvent.click(button(add)));
  await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull());
  if (submit) await act(async () => fireEvent.click(okButton()));
  return api;
}

/** The form item labelled `label` in the modal. */
function formItem(label: string): HTMLElement {
  const item = [...document.querySelectorAll('.ant-modal .ant-form-item')].find(
    (el) => el.querySelector('.ant-form-item-label')?.textContent === label,
  );
  if (!item) throw new Error(`no form item ${label}`);
  return item as HTMLElement;
}
async function pick(label: string, option: string) {
  const selector = formItem(label).querySelector('.ant-select-selector')!;
  await act(async () => fireEvent.mouseDown(selector));
  await waitFor(() =>
    expect(
      [...document.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === option),
    ).toBe(true),
  );
  const item = [...document.querySelectorAll('.ant-select-item-option')].find(
    (o) => o.textContent === option,
  )!;
  await act(async () => fireEvent.click(item));
}
async function fill(label: string, value: string) {
  const input = formItem(label).querySelector('input')!;
  await act(async () => fireEvent.change(input, { target: { value } }));
}

describe('CustomersPage', { timeout: 120_000 }, () => {
  it('refuses an empty company with the §5 messages of the contracts, in English', async () => {
    const { calls } = await open('en-US', 'companies');
    await waitFor(() => expect(errors()).toHaveLength(4));
    expect(errors()).toEqual([
      'Company number is required',
      'Company name is required',
      'Contacts are required',
      'Contact information is required',
    ]);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('refuses an empty customer with the §5 messages, in Chinese', async () => {
    const { calls } = await open('zh-CN', 'customers');
    await waitFor(() => expect(errors().length).toBeGreaterThanOrEqual(4));
    expect(errors()).toEqual(
      expect.arrayContaining(['用户名不能为空', '证件类型不能为空', '证件号码不能为空', '客户类型不能为空']),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(text()).not.toMatch(/iccard\./);
  });

  it('a group external card (client type 3) must name its group, and is saved with it', async () => {
    const saved: unknown[] = [];
    await open(
      'en-US',
      'customers',
      {
        'GET /api/iccard/customer/page/1/size/500': () => ({
          list: [{ id: 8, userName: 'Depot Fleet', clientType: 2 }],
          total: 1,
        }),
        'POST /api/iccard/customer': (request) => {
          saved.push(request.body);
          return { id: 9 };
        },
      },
      false,
    );
    expect(() => formItem('Group')).toThrow(); // personal by default: no group
    await pick('Client type', 'Group external card');
    await fill('User name', 'Li Lei');
    await pick('Certificate type', 'ID card');
    await fill('Certificate number', '110101199001011234');
    await fill('Customer type', 'driver');
    await act(async () => fireEvent.click(okButton()));
    await waitFor(() => expect(errors()).toEqual(['Choose the group']));
    expect(saved).toEqual([]);
    await pick('Group', 'Depot Fleet');
    await act(async () => fireEvent.click(okButton()));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      clientType: 3,
      groupId: 8,
      userName: 'Li Lei',
      certificateType: 'idCard',
      certificateNumber: '110101199001011234',
      customerType: 'driver',
      phone: null,
      companyId: null,
      gender: null,
      nation: null,
      address: null,
      identityVerified: false,
    });
  });
});
