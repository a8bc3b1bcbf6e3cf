import { describe, expect, expectTypeOf, it } from 'vitest';
import { msgOperations, msgPath } from './msg-center.generated';
import type { InboxMessage, MsgBody, MsgQuery, MsgResponse, MsgTemplatePage } from './msg-center.generated';

describe('generated msg-center client', () => {
  it('fills path parameters in, percent-encoded', () => {
    expect(msgPath('TemplatesController_page', { page: 2, size: 10 })).toBe(
      '/ms/m1/msg/template/page/2/size/10',
    );
    expect(msgPath('TemplatesController_delete', { id: 'a/b' })).toBe('/ms/m1/msg/template/a%2Fb');
    expect(msgPath('InboxController_unread')).toBe('/ms/m1/msg/inbox/unread');
  });

  it('refuses a missing path parameter', () => {
    expect(() => msgPath('GroupsController_page', { page: 1 } as never)).toThrow(/size is missing/);
  });

  it("serves the spec's message service paths exactly as written", () => {
    const paths = Object.values(msgOperations).map((operation) => `${operation.method} ${operation.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /ms/dictionaries/dict/tree',
        'GET /ms/prometheus/targets',
        'GET /ms/m1/msg/group/search',
        'GET /ms/m1/msg/config/page/{page}/size/{size}',
        'POST /ms/m1/msg/inbox/read',
        'POST /ms/m1/msg/inbox/del',
        'GET /ms/m1/msg/inbox/unread',
      ]),
    );
    expect(msgOperations.InboxController_page.queryParams).toEqual(['start', 'end']);
    expect(msgOperations.PrometheusTargetsController_targets.queryParams).toEqual(['job']);
  });

  it('types queries, bodies and answers from the document', () => {
    expectTypeOf<MsgResponse<'TemplatesController_page'>>().toEqualTypeOf<MsgTemplatePage>();
    expectTypeOf<MsgResponse<'InboxController_unread'>>().toEqualTypeOf<InboxMessage[]>();
    expectTypeOf<MsgResponse<'InboxController_del'>>().toEqualTypeOf<boolean>();
    expectTypeOf<MsgQuery<'InboxController_page'>>().toEqualTypeOf<{ start?: string; end?: string }>();
    expectTypeOf<MsgBody<'TemplatesController_create'>['templateName']>().toEqualTypeOf<string>();
    expectTypeOf<MsgBody<'InboxController_unread'>>().toEqualTypeOf<undefined>();
  });
});
