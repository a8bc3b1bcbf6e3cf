import { act, fireEvent } from '@testing-library/react';
import type { PricePlanView } from '@voltdepot/console-api-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { dictionaryRoutes } from '../../../test/fakeApi';
import { BILLING_DICTIONARIES } from '../../../test/fixtures';
import { measureTextOnCanvas } from '../../../test/canvas';
import { PricePlanFormModal } from './PricePlanFormModal';

const stored: PricePlanView = {
  id: 5,
  name: 'Depot tariff',
  isDefault: false,
  updatedAt: '2026-11-20T08:00:00.000Z',
  effectiveFrom: null,
  stages: [
    {
      stageType: 'valley',
      startTime: '23:00',
      endTime: '07:00',
      electricityPrice: '0.3200',
      serviceFee: '0.4000',
    },
    {
      stageType: 'normal',
      startTime: '07:00',
      endTime: '10:00',
      electricityPrice: '0.6400',
      serviceFee: '0.6000',
    },
    {
      stageType: 'peak',
      startTime: '10:00',
      endTime: '23:00',
      electricityPrice: '0.8523',
      serviceFee: '0.8000',
    },
  ],
};

let restoreCanvas: () => void;
beforeAll(() => {
  restoreCanvas = measureTextOnCanvas();
});
afterAll(() => restoreCanvas());

async function open(
  routes: Record<string, FakeHandler> = {},
  plan?: PricePlanView,
  locale: 'en-US' | 'zh-CN' = 'en-US',
) {
  const api = stubApi({ ...dictionaryRoutes(BILLING_DICTIONARIES), ...routes });
  const onClose = vi.fn();
  await renderInApp(<PricePlanFormModal open plan={plan} onClose={onClose} />, { locale });
  await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull());
  return { ...api, onClose };
}

const text = () => document.body.textContent ?? '';
const feedback = () => document.querySelector('[data-testid="coverage-feedback"]')?.textContent ?? '';
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const field = (row: number, label: string) =>
  document.querySelector(`[data-testid="stage-row-${row}"] input[aria-label="${label}"]`) as HTMLInputElement;
async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    fireEvent.change(input, { target: { value } });
  });
}
const okButton = () =>
  [...document.querySelectorAll('.ant-modal-footer button')].find((b) =>
    /OK|确/.test(b.textContent ?? ''),
  ) as HTMLButtonElement;

// Whole antd forms in jsdom are slow on a busy machine: generous time-outs.
describe('PricePlanFormModal', { timeout: 120_000 }, () => {
  it('shows a stored plan as covering the day, then names a gap and an overlap as the user types', async () => {
    await open({}, stored);
    await waitFor(() => expect(feedback()).toBe('The stages cover the whole day 00:00-24:00'));
    await type(field(1, 'End time'), '09:00');
    await waitFor(() => expect(feedback()).toContain('Gap: no stage covers 09:00 to 10:00'));
    await type(field(1, 'End time'), '11:30');
    await waitFor(() => expect(feedback()).toContain('Overlap: 2 stages cover 10:00 to 11:30'));
    expect(feedback()).not.toContain('Gap');
    expect(document.querySelector('[data-testid="stage-band-chart"]')).not.toBeNull();
  });

  it('speaks Chinese too', async () => {
    await open({}, { ...stored, stages: stored.stages.slice(0, 2) }, 'zh-CN');
    await waitFor(() => expect(feedback()).toContain('10:00 至 23:00 未被任何时段覆盖（空缺）'));
  });

  it('accepts 4 decimals and refuses a fifth, a negative or a price over 100', async () => {
    await open({}, stored);
    for (const [value, message] of [
      ['0.85231', 'At most 4 decimals, e.g. 0.8523'],
      ['-1', 'At most 4 decimals, e.g. 0.8523'],
      ['100.5', 'At most 100 yuan/kW·h'],
      ['', 'Please enter the price'],
    ]) {
      await type(field(2, 'Electricity price'), value);
      await waitFor(() => expect(errors()).toContain(message));
    }
    await type(field(2, 'Electricity price'), '0.8524');
    await waitFor(() => expect(errors()).toEqual([]));
  });

  it('does not send a plan with a gap', async () => {
    const { calls } = await open({ 'PUT /api/pricePlan/5': () => ({ id: 5 }) }, stored);
    await type(field(0, 'Start time'), '22:00');
    await type(field(0, 'End time'), '06:00');
    await waitFor(() => expect(feedback()).toContain('Gap: no stage covers 06:00 to 07:00'));
    await act(async () => okButton().click());
    await waitFor(() => expect(text()).toContain('Fix the gaps and overlaps of the stages first'));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('sends the prices exactly as typed, with 4 decimals', async () => {
    const { calls, onClose } = await open({ 'PUT /api/pricePlan/5': () => ({ id: 5 }) }, stored);
    await type(field(1, 'Service fee'), '0.61');
    await type(field(2, 'Electricity price'), '0.8529');
    await act(async () => okButton().click());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'Depot tariff',
      isDefault: false,
      stages: [
        {
          stageType: 'valley',
          startTime: '23:00',
          endTime: '07:00',
          electricityPrice: '0.3200',
          serviceFee: '0.4000',
        },
        {
          stageType: 'normal',
          startTime: '07:00',
          endTime: '10:00',
          electricityPrice: '0.6400',
          serviceFee: '0.6100',
        },
        {
          stageType: 'peak',
          startTime: '10:00',
          endTime: '23:00',
          electricityPrice: '0.8529',
          serviceFee: '0.8000',
        },
      ],
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the server's gap and overlap errors, translated", async () => {
    const problems = [
      'gap between 02:00 and 03:00: no stage covers it',
      'overlap between 04:00 and 05:00: 2 stages cover it',
    ];
    await open(
      {
        'POST /api/pricePlan': () =>
          json(
            {
              code: 'PRICE_PLAN_INVALID_STAGES',
              message: problems.join('; '),
              details: { problems },
              correlationId: 'c-1',
            },
            422,
          ),
      },
      undefined,
    );
    const name = document.querySelector('[data-testid="price-plan-name"]') as HTMLInputElement;
    await type(name, 'New tariff');
    await type(field(0, 'Electricity price'), '0.5');
    await type(field(0, 'Service fee'), '0.4');
    await act(async () => okButton().click());
    await waitFor(() => {
      const server = document.querySelector('[data-testid="server-problems"]')?.textContent ?? '';
      expect(server).toContain('Gap: no stage covers 02:00 to 03:00');
      expect(server).toContain('Overlap: 2 stages cover 04:00 to 05:00');
    });
    // The request layer showed the api's message too.
    expect(text()).toContain(problems.join('; '));
  });
});
