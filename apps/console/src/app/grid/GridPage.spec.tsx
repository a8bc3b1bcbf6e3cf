import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { request } from '../../request';
import { json, stubApi, type FakeRequest } from '../../test/fakeApi';
import { waitFor } from '../../test/render';
import { renderInApp } from '../../test/renderInApp';
import { dateTimeColumn } from './columns';
import { GridPage, type GridButton, type GridPageProps, type RowAction } from './GridPage';
import { usePagedGrid, useRowsGrid } from './useGrid';

vi.setConfig({ testTimeout: 60_000 });

type Thing = { id: number; name: string; builtin: boolean; at: string };
const thing = (id: number, extra: Partial<Thing> = {}): Thing => ({
  id,
  name: `Thing ${id}`,
  builtin: false,
  at: '2026-03-01T00:00:00Z',
  ...extra,
});

type Props = Omit<GridPageProps<Thing>, 'grid' | 'title' | 'columns'>;

function Things(props: Props & { title?: string }) {
  const grid = usePagedGrid<Thing>({
    listKey: ['things'],
    fetch: (page, size, filters, signal) =>
      request.get(`/api/thing/page/${page}/size/${size}`, { params: filters, signal }),
    filters: ['name'],
  });
  return (
    <GridPage<Thing>
      grid={grid}
      title="Things"
      columns={[{ title: 'Name', dataIndex: 'name' }, dateTimeColumn<Thing>('At', 'at')]}
      {...props}
    />
  );
}

/** 12 things, pages of 10; every call recorded. */
function thingsApi(more: Record<string, (req: FakeRequest) => unknown> = {}) {
  const all = Array.from({ length: 12 }, (_, i) => thing(i + 1));
  return stubApi({
    'GET /api/thing/page/1/size/10': () => ({ list: all.slice(0, 10), total: 12 }),
    'GET /api/thing/page/2/size/10': () => ({ list: all.slice(10), total: 12 }),
    ...more,
  });
}

const pageCalls = (calls: FakeRequest[]) =>
  calls.filter((c) => c.path.startsWith('/api/thing/page/')).map((c) => `${c.path}?${c.query}`);
const rows = () => [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')];
const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
const buttonIn = (row: Element, text: string) =>
  [...row.querySelectorAll('button')].find((b) => b.textContent === text) as HTMLButtonElement | undefined;
/** Clicks a guarded button once its click guard (500 ms after the last click) lets go. */
async function press(testId: string) {
  await waitFor(() => expect((byTestId(testId) as HTMLButtonElement).disabled).toBe(false));
  await act(async () => byTestId(testId)!.click());
}
const confirmButton = (text: string) =>
  [...document.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === text) as
    HTMLElement | undefined;

describe('GridPage: pages through react-query', () => {
  it('waits for the search form, reads page 1 with its initial filters, pages, and asks again on query', async () => {
    const { calls } = thingsApi();
    await renderInApp(<Things search={{ queryTestId: 'q', initialValues: { name: 'Thing' } }} />);
    await waitFor(() => expect(rows()).toHaveLength(10));
    // One read, with the form's initial value: none before the form handed it over.
    expect(pageCalls(calls)).toEqual(['/api/thing/page/1/size/10?name=Thing']);
    expect(document.body.textContent).toContain('12 in total');
    expect(document.querySelector('.ant-pro-table-list-toolbar')?.textContent).toContain('Things');
    // Times in the business time zone (Asia/Shanghai), whatever the machine's.
    expect(rows()[0]!.textContent).toContain('2026-03-01 08:00:00');

    fireEvent.click(document.querySelector('.ant-pagination-item-2') as HTMLElement);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(pageCalls(calls).at(-1)).toBe('/api/thing/page/2/size/10?name=Thing');

    // The same search again goes back to page 1; pressed on page 1 it still asks the server.
    await press('q');
    await waitFor(() => expect(rows()).toHaveLength(10));
    const before = pageCalls(calls).length;
    await press('q');
    await waitFor(() => expect(pageCalls(calls).length).toBe(before + 1));

    fireEvent.change(document.querySelector('#name') as HTMLInputElement, {
      target: { value: '  Thing 1 ' },
    });
    await press('q');
    await waitFor(() => expect(pageCalls(calls).at(-1)).toBe('/api/thing/page/1/size/10?name=Thing+1'));
  });

  it("uses the list's own words first, the grid's otherwise", async () => {
    thingsApi();
    await renderInApp(
      <Things title={undefined} texts="messages.common" search={{ queryTestId: 'q' }} sequence />,
    );
    await waitFor(() => expect(rows()).toHaveLength(10));
    // No title, no toolbar content: no toolbar row (a message-centre card's list).
    expect(document.querySelector('.ant-pro-table-list-toolbar')).toBeNull();
    expect(byTestId('q')!.textContent).toBe('Query');
    expect(document.querySelector('.ant-table-thead th')!.textContent).toBe('Sequence');
    expect(rows()[0]!.querySelector('td')!.textContent).toBe('1');

    document.body.innerHTML = '';
    thingsApi();
    await renderInApp(<Things search={{ queryTestId: 'q2' }} />, { locale: 'zh-CN' });
    await waitFor(() => expect(byTestId('q2')).not.toBeNull());
    expect(byTestId('q2')!.textContent?.replace(/\s/g, '')).toBe('查询');
  });
});

describe('GridPage: buttons and row actions', () => {
  const add: GridButton = { key: 'add', permission: 'thing:add', testId: 'add', onClick: vi.fn() };
  const actions = (onEdit = vi.fn()): RowAction<Thing>[] => [
    { key: 'edit', permission: 'thing:edit', testId: (r) => `edit-${r.id}`, onClick: onEdit },
    {
      key: 'delete',
      permission: 'thing:delete',
      visible: (r) => !r.builtin,
      testId: (r) => `delete-${r.id}`,
      confirm: (r) => `Delete ${r.name}?`,
      cancelled: 'Kept',
      onClick: (r) => request.delete(`/api/thing/${r.id}`),
    },
  ];

  it('shows each button and action only to users holding its permission, and no column without any', async () => {
    const onEdit = vi.fn();
    thingsApi({
      'GET /api/thing/page/1/size/10': () => ({ list: [thing(1), thing(2, { builtin: true })], total: 2 }),
    });
    await renderInApp(<Things toolbar={[add]} rowActions={actions(onEdit)} />, {
      permissions: ['thing:add', 'thing:edit', 'thing:delete'],
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(byTestId('add')!.textContent).toContain('Add');
    expect(byTestId('delete-1')).not.toBeNull();
    expect(byTestId('delete-2')).toBeNull(); // not offered for that row
    fireEvent.click(byTestId('edit-1')!);
    expect(onEdit).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));

    document.body.innerHTML = '';
    thingsApi();
    await renderInApp(<Things toolbar={[add]} rowActions={actions()} />, { permissions: [] });
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(byTestId('add')).toBeNull();
    expect(byTestId('edit-1')).toBeNull();
    const headers = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(headers).not.toContain('Actions');
  });

  it('a delete asks first, then says deleted and reads the list again; a refusal changes nothing', async () => {
    let refuse = false;
    const { calls } = thingsApi({
      'DELETE /api/thing/1': () =>
        refuse
          ? json({ code: 'CONFLICT', message: 'Thing 1 is in use', correlationId: 'c' }, 409)
          : json(undefined, 204),
    });
    await renderInApp(<Things rowActions={actions()} />, { permissions: ['thing:edit', 'thing:delete'] });
    await waitFor(() => expect(rows()).toHaveLength(10));

    await press('delete-1');
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-confirm')?.textContent).toContain('Delete Thing 1?'),
    );
    fireEvent.click(confirmButton('Cancel')!);
    await waitFor(() => expect(document.body.textContent).toContain('Kept'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    const reads = pageCalls(calls).length;
    await press('delete-1');
    await waitFor(() => expect(confirmButton('OK')).toBeDefined());
    await act(async () => confirmButton('OK')!.click());
    await waitFor(() => expect(document.body.textContent).toContain('Deleted'));
    await waitFor(() => expect(pageCalls(calls).length).toBe(reads + 1));

    refuse = true;
    await press('delete-1');
    await waitFor(() => expect(document.querySelectorAll('.ant-modal-confirm').length).toBeGreaterThan(0));
    await act(async () =>
      [...document.querySelectorAll('.ant-modal-confirm')]
        .at(-1)!
        .querySelector<HTMLElement>('.ant-btn-primary')!
        .click(),
    );
    await waitFor(() => expect(document.body.textContent).toContain('Thing 1 is in use'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(pageCalls(calls).length).toBe(reads + 1);
  });

  it('an action resolving false says nothing was deleted, and nothing is read again', async () => {
    const { calls } = thingsApi();
    await renderInApp(
      <Things rowActions={[{ key: 'delete', confirm: () => 'Sure?', onClick: async () => false }]} />,
    );
    await waitFor(() => expect(rows()).toHaveLength(10));
    const reads = pageCalls(calls).length;
    fireEvent.click(buttonIn(rows()[0]!, 'Delete')!);
    await waitFor(() => expect(confirmButton('OK')).toBeDefined());
    await act(async () => confirmButton('OK')!.click());
    await waitFor(() => expect(document.body.textContent).toContain('Nothing was deleted'));
    expect(pageCalls(calls).length).toBe(reads);
  });

  it('an export gets the shown filters and the language, and names the saved file', async () => {
    thingsApi();
    const run = vi.fn(async () => 'things.xlsx');
    await renderInApp(
      <Things
        search={{ queryTestId: 'q', initialValues: { name: 'Thing' } }}
        toolbar={[{ key: 'export', testId: 'export', onClick: run }]}
      />,
    );
    await waitFor(() => expect(rows()).toHaveLength(10));
    await press('export');
    expect(run).toHaveBeenCalledWith({ filters: { name: 'Thing' }, locale: 'en-US' });
    await waitFor(() => expect(document.body.textContent).toContain('Exported things.xlsx'));
  });
});

type Node = { id: number; code: string; children: Node[] };
const node = (id: number, code: string, children: Node[] = []): Node => ({ id, code, children });

function Tree({ data }: { data: Node[] }) {
  const grid = useRowsGrid<Node>(['tree'], { data, isFetching: false });
  return (
    <GridPage<Node>
      grid={grid}
      title="Tree"
      columns={[{ title: 'Code', dataIndex: 'code' }]}
      tree={{ searchText: (n) => n.code, searchTestId: 'tree-search' }}
      table={{ onRow: (n) => ({ 'data-testid': `row-${n.code}` }) as object }}
    />
  );
}

describe('GridPage: a whole tree', () => {
  it('shows the tree open when short, and the search box keeps the matches with the branches above them', async () => {
    await renderInApp(
      <Tree data={[node(1, 'sys', [node(2, 'sys:user'), node(3, 'sys:log')]), node(4, 'home')]} />,
    );
    await waitFor(() => expect(byTestId('row-sys:log')).not.toBeNull());
    expect(document.querySelector('.ant-pagination')).toBeNull();
    fireEvent.change(
      document.querySelector('[data-testid="tree-search"] input, input[data-testid="tree-search"]')!,
      {
        target: { value: 'LOG' },
      },
    );
    await waitFor(() => expect(byTestId('row-home')).toBeNull());
    expect(byTestId('row-sys')).not.toBeNull();
    expect(byTestId('row-sys:log')).not.toBeNull();
    expect(byTestId('row-sys:user')).toBeNull();
  });
});
