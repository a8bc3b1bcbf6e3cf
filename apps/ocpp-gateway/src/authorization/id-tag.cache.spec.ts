import { decideIdTag } from './id-tag.cache';

const now = new Date('2026-01-01T00:00:00Z');

describe('decideIdTag', () => {
  it.each([
    ['unknown tag', undefined, 'Invalid'],
    ['accepted tag', { status: 'Accepted', expiryDate: null, parentIdTag: null }, 'Accepted'],
    ['blocked tag', { status: 'Blocked', expiryDate: null, parentIdTag: null }, 'Blocked'],
    ['invalid tag', { status: 'Invalid', expiryDate: null, parentIdTag: null }, 'Invalid'],
    ['expired by status', { status: 'Expired', expiryDate: null, parentIdTag: null }, 'Expired'],
    [
      'expired by date',
      { status: 'Accepted', expiryDate: new Date('2025-12-31T23:59:59Z'), parentIdTag: null },
      'Expired',
    ],
    [
      'not yet expired',
      { status: 'Accepted', expiryDate: new Date('2026-01-02T00:00:00Z'), parentIdTag: null },
      'Accepted',
    ],
  ] as const)('%s -> %s', (_name, record, status) => {
    expect(decideIdTag(record ? { idTag: 'T', ...record } : undefined, now).status).toBe(status);
  });

  it('passes expiry and parent through', () => {
    expect(
      decideIdTag(
        {
          idTag: 'T',
          status: 'Accepted',
          expiryDate: new Date('2026-02-01T00:00:00Z'),
          parentIdTag: 'FLEET',
        },
        now,
      ),
    ).toEqual({ status: 'Accepted', expiryDate: '2026-02-01T00:00:00.000Z', parentIdTag: 'FLEET' });
  });
});
