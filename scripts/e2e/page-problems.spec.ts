import { isExpectedBrowserError } from './page-problems';

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
