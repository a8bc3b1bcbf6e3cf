import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  carriesError,
  isExpectedBrowserError,
  pageTextProblems,
  rawCode,
  LOCALE_NAMESPACES,
  rawI18nKeys,
} from './page-problems';

const FAILED = (status: string) => `Failed to load resource: the server responded with a status of ${status}`;

describe('isExpectedBrowserError', () => {
  it.each([
    [FAILED('401 (Unauthorized)'), 'http://127.0.0.1:4200/auth/login', true],
    [FAILED('400 (Bad Request)'), 'http://127.0.0.1:4200/api/pile', true],
    [FAILED('404 (Not Found)'), 'http://127.0.0.1:4200/ms/m1/msg/template/9', true],
    [FAILED('500 (Internal Server Error)'), 'http://127.0.0.1:4200/api/pile', false],
    [FAILED('502 (Bad Gateway)'), 'http://127.0.0.1:4200/ms/m1/msg/inbox/unread', false],
    [FAILED('404 (Not Found)'), 'http://127.0.0.1:4200/assets/index-abc.js', false],
    [FAILED('404 (Not Found)'), 'http://127.0.0.1:4200/apiDocs', false],
    [FAILED('403 (Forbidden)'), undefined, false],
    ['TypeError: Missing text after "orderManage"', 'http://127.0.0.1:4200/assets/index-abc.js', false],
    [
      'Refused to apply inline style because it violates the following Content Security Policy directive: "style-src \'self\'"',
      'http://127.0.0.1:4200/home',
      false,
    ],
  ])('%s at %s: %s', (text, url, expected) => {
    expect(isExpectedBrowserError(text, url)).toBe(expected);
  });
});

describe('carriesError', () => {
  it.each([
    [
      'key /order/orderManage:list TypeError: Missing text after "orderManage"\n    at Ue (http://x/assets/index.js:1:2)',
      true,
    ],
    ['Error: warned\n    at eval (eval at evaluate (:370:30), <anonymous>:3:22)', true],
    ['plain {a: 1}', false],
    ['No map tiles configured: an Error: line without a stack', false],
  ])('%j: %s', (text, expected) => {
    expect(carriesError(text)).toBe(expected);
  });
});

describe('rawI18nKeys', () => {
  it("knows the console's namespaces exactly (the top-level keys of its en-US messages)", () => {
    const source = readFileSync(join(__dirname, '../../apps/console/src/locales/en-US.ts'), 'utf8');
    const body = source.slice(source.indexOf('export const enUS'));
    const namespaces = [...body.matchAll(/^ {2}([A-Za-z]\w*):/gm)].map((m) => m[1]);
    expect(namespaces.length).toBeGreaterThan(10);
    expect([...LOCALE_NAMESPACES].sort()).toEqual([...new Set(namespaces)].sort());
  });

  it.each([
    ['menu.system.name', ['menu.system.name']],
    ['Voltdepot | menu.system.name', ['menu.system.name']],
    ['显示为：notice.inbox', ['notice.inbox']],
    ['结束原因 billing.order.endReason.x', ['billing.order.endReason.x']],
    ['Stopped: billing.stopReason.Local.', []], // a part starting upper case is no key part
    ['admin.config.systemName.', ['admin.config.systemName']],
    ['menu.sys_user_add and menu.operation_orderManage', ['menu.sys_user_add', 'menu.operation_orderManage']],
  ])('%j shows %j', (text, keys) => {
    expect(rawI18nKeys(text)).toEqual(keys);
  });

  it.each([
    'https://voltdepot.example.com/login?next=/sys/user',
    'admin@voltdepot.com',
    'ops.team@depot.cn',
    'www.amap.com',
    'voltdepot.local',
    'orders-2025-03-01.xlsx',
    'report.pdf and depot.csv',
    'Version 1.2.3, v2.0.1-rc.1',
    '127.0.0.1:8080',
    'CP-001, CP-HF-0002.1',
    'Pile ${pile.name} stopped at {{gun.no}}',
    'e.g. a bus, i.e. one vehicle, etc.',
    'Node.js and Energy.Active.Import.Register',
    'Sentences end. Then a space follows.',
    '电量 12.5 kWh，金额 3.20 元',
    'The pile answered: Accepted.',
    'e2e.clerk, zhang.san and ops.team', // user names with dots are data, not keys
  ])('%j shows none', (text) => {
    expect(rawI18nKeys(text)).toEqual([]);
  });
});

describe('rawCode', () => {
  it.each([
    // Chinese pages: any known code shown alone in a cell is raw.
    ['Local', 'zh-CN', 'Local'],
    ['EVDisconnected', 'zh-CN', 'EVDisconnected'],
    [' PowerLoss ', 'zh-CN', 'PowerLoss'],
    ['Accepted', 'zh-CN', 'Accepted'],
    ['paid', 'zh-CN', 'paid'],
    ['meterJump', 'zh-CN', 'meterJump'],
    ['Charging', 'zh-CN', 'Charging'],
    // English pages: a code that is not its own English label.
    ['Local', 'en-US', 'Local'],
    ['Remote', 'en-US', 'Remote'],
    ['EVDisconnected', 'en-US', 'EVDisconnected'],
    ['GroundFailure', 'en-US', 'GroundFailure'],
    ['SuspendedEV', 'en-US', 'SuspendedEV'],
    ['paid', 'en-US', 'paid'],
  ])('%j on a %s page is raw', (cell, lang, code) => {
    expect(rawCode(cell, lang)).toBe(code);
  });

  it.each([
    ['停止原因：Local', 'zh-CN'], // not alone in the cell
    ['充电桩本地停止', 'zh-CN'],
    ['CP-001', 'zh-CN'],
    ['Voltdepot', 'zh-CN'],
    ['2025-03-01 08:00:00', 'zh-CN'],
    ['Accepted', 'en-US'], // its English label is the same word
    ['Charging', 'en-US'],
    ['Paid', 'en-US'],
    ['Local stop at the pile', 'en-US'],
    ['Vehicle disconnected', 'en-US'],
  ])('%j on a %s page is no raw code', (cell, lang) => {
    expect(rawCode(cell, lang)).toBeUndefined();
  });
});

describe('pageTextProblems', () => {
  it('names each raw key and raw code once, with where it was', () => {
    expect(
      pageTextProblems(
        {
          lang: 'zh-CN',
          text: 'menu.system.name\n订单详情\nLocal\nmenu.system.name',
          cells: ['Local', 'Local', '已支付', 'CP-001'],
        },
        '/report/components/session',
      ),
    ).toEqual([
      'raw i18n key "menu.system.name" shown on /report/components/session',
      'raw code "Local" shown as a label on /report/components/session',
    ]);
  });

  it('finds nothing on a page of labels', () => {
    expect(
      pageTextProblems(
        {
          lang: 'en-US',
          text: 'Voltdepot Charging Operations\nOrder detail\nLocal stop at the pile\nadmin@voltdepot.com',
          cells: ['Local stop at the pile', 'Paid', 'Accepted', 'CP-001'],
        },
        '/report/components/session',
      ),
    ).toEqual([]);
  });
});
