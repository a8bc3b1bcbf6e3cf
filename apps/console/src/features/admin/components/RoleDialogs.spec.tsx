import { fireEvent } from '@testing-library/react';
import type { OrganizationNode, ResourceNode, RoleView } from '@voltdepot/console-api-client';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { DataAuthDialog, MenuAuthDialog } from './RoleDialogs';

const ROLE: RoleView = {
  id: 7,
  code: 'auditor',
  name: 'Auditor',
  description: null,
  builtin: false,
  createdAt: '',
  updatedAt: '',
};

const node = (
  id: number,
  code: string,
  children: ResourceNode[] = [],
  type: ResourceNode['type'] = 'menu',
): ResourceNode => ({
  id,
  parentId: null,
  type,
  code,
  name: code,
  path: null,
  icon: null,
  sort: 0,
  visible: true,
  children,
});

/** sys > sys:user > sys:user:add, sys:user:delete; sys > sys:log. */
const RESOURCES: ResourceNode[] = [
  node(1, 'sys', [
    node(2, 'sys:user', [node(3, 'sys:user:add', [], 'button'), node(4, 'sys:user:delete', [], 'button')]),
    node(5, 'sys:log'),
  ]),
];

const org = (
  id: number,
  code: string,
  name: string,
  children: OrganizationNode[] = [],
): OrganizationNode => ({
  id,
  parentId: null,
  code,
  name,
  sort: 0,
  children,
});
const ORGANIZATIONS: OrganizationNode[] = [
  org(1, 'ROOT', 'Voltdepot Group', [org(2, 'HF', 'Hefei'), org(3, 'FZ', 'Fuzhou')]),
];

async function show(ui: ReactNode, routes: Record<string, FakeHandler>) {
  const api = stubApi(routes);
  await renderInApp(ui);
  return api;
}

const treeNodeOf = (testId: string) =>
  document.querySelector(`[data-testid="${testId}"]`)!.closest('.ant-tree-treenode') as HTMLElement;
const isChecked = (testId: string) =>
  treeNodeOf(testId).querySelector('.ant-tree-checkbox')!.classList.contains('ant-tree-checkbox-checked');
const tick = (testId: string) =>
  fireEvent.click(treeNodeOf(testId).querySelector('.ant-tree-checkbox') as HTMLElement);
const filter = (testId: string, text: string) =>
  fireEvent.change(
    document.querySelector(`input[data-testid="${testId}-filter"], [data-testid="${testId}-filter"] input`)!,
    { target: { value: text } },
  );
const save = (testId: string) =>
  fireEvent.click(document.querySelector(`[data-testid="${testId}-save"]`) as HTMLElement);

describe('menu authorisation', () => {
  it('loads the tree with the role’s selection from one call; ticking a button ticks its menus; saves the ticked ids', async () => {
    const api = await show(<MenuAuthDialog role={ROLE} onClose={() => undefined} />, {
      'GET /api/role/7/resources': () => ({ resourceIds: [1, 5], tree: RESOURCES }),
      'PUT /api/role/7/resources': (req) => req.body,
    });
    await waitFor(() => expect(document.querySelector('[data-testid="resource-sys"]')).not.toBeNull());
    expect(document.body.textContent).toContain('Auditor');
    // The dialog needs only its own permission: no call for the whole resource tree.
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/role/7/resources']);
    expect(isChecked('resource-sys')).toBe(true);

    filter('menu-auth', 'sys:user:add');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="resource-sys:user:add"]')).not.toBeNull(),
    );
    expect(isChecked('resource-sys:user:add')).toBe(false);
    tick('resource-sys:user:add');
    await waitFor(() => expect(isChecked('resource-sys:user:add')).toBe(true));
    expect(isChecked('resource-sys:user')).toBe(true);

    save('menu-auth');
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = api.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/role/7/resources');
    expect(put.body).toEqual({ resourceIds: [1, 2, 3, 5] });
  }, 60_000);

  it('unticking a menu unticks what is under it', async () => {
    const api = await show(<MenuAuthDialog role={ROLE} onClose={() => undefined} />, {
      'GET /api/role/7/resources': () => ({ resourceIds: [1, 2, 3, 4, 5], tree: RESOURCES }),
      'PUT /api/role/7/resources': (req) => req.body,
    });
    await waitFor(() => expect(document.querySelector('[data-testid="resource-sys"]')).not.toBeNull());
    filter('menu-auth', 'sys:user');
    await waitFor(() => expect(document.querySelector('[data-testid="resource-sys:user"]')).not.toBeNull());
    tick('resource-sys:user');
    await waitFor(() => expect(isChecked('resource-sys:user')).toBe(false));
    save('menu-auth');
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({ resourceIds: [1, 5] });
  }, 60_000);
});

describe('data authorisation', () => {
  it('loads the subtrees with the role’s organisations; each organisation is ticked on its own; saves the ticked ids', async () => {
    const api = await show(<DataAuthDialog role={ROLE} onClose={() => undefined} />, {
      'GET /api/role/7/organizations': () => ({ organizationIds: [2], tree: ORGANIZATIONS }),
      'PUT /api/role/7/organizations': (req) => req.body,
    });
    await waitFor(() => expect(document.querySelector('[data-testid="org-ROOT"]')).not.toBeNull());
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/role/7/organizations']);
    expect(isChecked('org-ROOT')).toBe(false);

    filter('data-auth', 'Fuzhou');
    await waitFor(() => expect(document.querySelector('[data-testid="org-FZ"]')).not.toBeNull());
    tick('org-FZ');
    await waitFor(() => expect(isChecked('org-FZ')).toBe(true));
    // Not linked: the parent stays as it was.
    expect(isChecked('org-ROOT')).toBe(false);

    save('data-auth');
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = api.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/role/7/organizations');
    expect(put.body).toEqual({ organizationIds: [2, 3] });
  }, 60_000);
});
