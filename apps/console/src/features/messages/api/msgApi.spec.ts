// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { createMsgApi } from './msgApi';

function fakeClient() {
  const answers: unknown[] = [];
  const call = vi.fn(() => Promise.resolve(answers.shift()));
  return {
    client: { get: call, post: call, put: call, delete: call },
    call,
    answer: (value: unknown) => answers.push(value),
  };
}

describe('message centre api (spec §7 paths)', () => {
  it('grids are page/{page}/size/{size} with the filters as query, and an empty page when nothing came back', async () => {
    const { client, call } = fakeClient();
    const api = createMsgApi(client as never);
    expect(await api.templates.page(2, 10, { templateName: 'stop' })).toEqual({ list: [], total: 0 });
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/template/page/2/size/10', {
      params: { templateName: 'stop' },
      signal: undefined,
    });
    for (const [page, path] of [
      [api.configs.page, '/ms/m1/msg/config/page/1/size/10'],
      [api.groups.page, '/ms/m1/msg/group/page/1/size/10'],
      [api.events.page, '/ms/m1/msg/event/page/1/size/10'],
      [api.alerts.page, '/ms/m1/msg/alerts/page/1/size/10'],
      [api.sendLogs.page, '/ms/m1/msg/send_log/page/1/size/10'],
    ] as const) {
      await page(1, 10);
      expect(call).toHaveBeenLastCalledWith(path, { params: {}, signal: undefined });
    }
  });

  it('create, update and delete of every resource', async () => {
    const { client, call, answer } = fakeClient();
    const api = createMsgApi(client as never);
    answer({ id: 5 });
    expect(await api.templates.create({ configId: 1, templateName: 'x', type: '0' })).toEqual({ id: 5 });
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/template', {
      configId: 1,
      templateName: 'x',
      type: '0',
    });
    await api.templates.update(5, { id: 5, configId: 1, templateName: 'y', type: '0' });
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/template/5', {
      id: 5,
      configId: 1,
      templateName: 'y',
      type: '0',
    });
    answer(true);
    expect(await api.templates.remove(5)).toBe(true);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/template/5');
    answer(false);
    expect(await api.groups.remove(3)).toBe(false);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/group/3');
    await api.alerts.remove(4);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/alerts/4');
    await api.events.update(2, {} as never);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/event/2', {});
    await api.configs.create({} as never);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/config', {});
  });

  it('lists: all configs, receivers by role and user, dictionaries by code', async () => {
    const { client, call, answer } = fakeClient();
    const api = createMsgApi(client as never);
    expect(await api.configs.all()).toEqual([]);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/config', { signal: undefined });
    answer([{ id: 1, name: 'Administrator' }]);
    expect(await api.groups.roles()).toEqual([{ id: 1, name: 'Administrator' }]);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/receiver/role', { signal: undefined });
    await api.groups.users();
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/receiver/user', { signal: undefined });
    expect(await api.dictionaries(['message_type', 'frequency'])).toEqual([]);
    expect(call).toHaveBeenLastCalledWith('/ms/m1/msg/dictionaries/dict/tree', {
      params: { code: 'message_type,frequency' },
      signal: undefined,
    });
  });
});
