import { fireEvent } from '@testing-library/react';
import type { SendLogDto } from '@voltdepot/shared-contracts';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { SendLogTable } from './SendLogTable';

// A whole ProTable in jsdom takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const log = (id: number, extra: Partial<SendLogDto>): SendLogDto => ({
  id,
  jobId: `evt-${id}.r1.u2.c1`,
  eventKey: `evt-${id}.r1`,
  ruleKind: 'event',
  ruleId: 1,
  channel: 1,
  receiverUserId: 2,
  receiver: 'ops@example.com',
  title: 'Pile stopped',
  content: '<p>Pile <b>A-01</b> stopped</p>',
  status: 'SUCCESS',
  attempts: 1,
  error: null,
  createTime: '2026-03-01 08:00:00',
  sentTime: '2026-03-01 08:00:01',
  ...extra,
});

describe('Send log', () => {
  it('lists status and the provider error, filters by receiver, expands to the content', async () => {
    const { calls } = stubApi({
      'GET /ms/m1/msg/dictionaries/dict/tree': () => [],
      'GET /ms/m1/msg/send_log/page/1/size/10': () => ({
        list: [
          log(1, {}),
          log(2, {
            status: 'FAILED',
            attempts: 5,
            error: 'SMTP answered 535 Authentication failed',
            sentTime: null,
          }),
        ],
        total: 2,
      }),
    });
    await renderInApp(<SendLogTable />);
    await waitFor(() => expect(document.body.textContent).toContain('SMTP answered 535'), 20_000);
    const statuses = [...document.querySelectorAll('[data-testid="send-status"]')].map((s) => s.textContent);
    expect(statuses).toEqual(['Success', 'Failed']);
    expect(document.querySelector('[data-testid="send-error"]')?.textContent).toBe(
      'SMTP answered 535 Authentication failed',
    );
    const rows = document.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    expect(rows[0].textContent).toContain('Email'); // channel 1 by its label
    expect(rows[0].textContent).toContain('event #1');

    fireEvent.click(rows[1].querySelector('.ant-table-row-expand-icon') as HTMLElement);
    await waitFor(() =>
      expect(document.querySelector('.ant-table-expanded-row')?.textContent).toContain('Pile A-01 stopped'),
    );
    expect(document.querySelector('.ant-table-expanded-row')?.textContent).toContain('evt-2.r1.u2.c1');

    fireEvent.change(document.querySelector('#receiver') as HTMLInputElement, { target: { value: 'ops' } });
    fireEvent.click(document.querySelector('[data-testid="msg-query"]') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.query.get('receiver') === 'ops')).toBe(true));
  });
});
