import type { IcCompanyView } from '../dto/iccard.dto';
import type { IcCardDataScope } from '../iccard-data-scope';
import { IcCardQueryException } from './iccard-query.exception';
import { IcCardQueryService, type IcCardListStore, type IcCardQueryStore } from './iccard-query.service';

const scope: IcCardDataScope = { rootIds: [1], pathPatterns: ['/1/%'] };
const company = (id: number): IcCompanyView => ({
  id,
  organizationId: 1,
  number: `C${id}`,
  name: `Company ${id}`,
  contacts: 'x',
  contactInformation: 'y',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** A company list of `count` rows served in pages, recording the pages asked for. */
function companies(count: number) {
  const asked: number[] = [];
  const lists = {
    companyPage: async (_s: IcCardDataScope, _q: unknown, page: number, size: number) => {
      asked.push(page);
      const ids = Array.from({ length: count }, (_, i) => count - i).slice((page - 1) * size, page * size);
      return { list: ids.map(company), total: count };
    },
  } as unknown as IcCardListStore;
  return { lists, asked };
}

async function collect<T>(rows: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of rows) all.push(...batch);
  return all;
}

describe('IcCardQueryService exports', () => {
  const scopes = { scopeOf: async () => scope };
  const queries = {} as IcCardQueryStore;

  it('streams every row in batches when the filters match no more than the limit', async () => {
    const { lists, asked } = companies(7);
    const service = new IcCardQueryService(lists, queries, scopes, 7, 3);
    const rows = await collect(await service.companyRows(1, {}));
    expect(rows.map((c) => c.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('refuses an export over the limit with 422 before a row is sent', async () => {
    const { lists, asked } = companies(8);
    const service = new IcCardQueryService(lists, queries, scopes, 7, 3);
    const refusal = await service.companyRows(1, {}).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(IcCardQueryException);
    expect(refusal).toMatchObject({
      code: 'ICCARD_EXPORT_TOO_LARGE',
      httpStatus: 422,
      message: 'the filters match 8 rows, more than the 7 one export writes: narrow them',
      details: { total: 8, limit: 7 },
    });
    expect(asked).toEqual([1]);
  });

  it('an empty list exports no rows', async () => {
    const { lists } = companies(0);
    const service = new IcCardQueryService(lists, queries, scopes, 7, 3);
    expect(await collect(await service.companyRows(1, {}))).toEqual([]);
  });
});
