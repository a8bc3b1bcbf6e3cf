import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
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

async function open(locale: 'en-US' | 'zh-CN', tab: 'companies' | 'customers') {
  const api = stubApi({
    'GET /api/iccard/company/page/1/size/10': empty,
    'GET /api/iccard/customer/page/1/size/10': empty,
    'GET /api/iccard/company/page/1/size/500': empty,
    'GET /api/iccard/customer/page/1/size/500': empty,
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
  await act(async () => fireEvent.click(okButton()));
  return api;
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
});
