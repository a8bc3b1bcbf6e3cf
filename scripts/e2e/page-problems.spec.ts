import { carriesError, isExpectedBrowserError } from './page-problems';

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
