// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildQueryString, joinUrl, withQuery, type QueryParams } from './query';

describe('buildQueryString', () => {
  it.each<[string, QueryParams | undefined, string]>([
    ['nothing', undefined, ''],
    ['an empty object', {}, ''],
    ['numbers and strings', { page: 1, size: 10, name: 'Depot 1' }, 'page=1&size=10&name=Depot+1'],
    ['null and undefined dropped', { a: null, b: undefined, c: 'x' }, 'c=x'],
    ['empty strings kept', { name: '', type: '0' }, 'name=&type=0'],
    ['booleans', { isRead: false }, 'isRead=false'],
    ['arrays repeat the key', { ids: [1, 2, 3] }, 'ids=1&ids=2&ids=3'],
    ['reserved characters encoded', { q: 'a&b=c/d' }, 'q=a%26b%3Dc%2Fd'],
    ['Chinese text', { stationName: '一号场站' }, 'stationName=%E4%B8%80%E5%8F%B7%E5%9C%BA%E7%AB%99'],
    // Square brackets: the string is built by hand and the brackets stay literal.
    ['a JSON array value', { ids: '[1,2]' }, 'ids=[1%2C2]'],
    [
      'a bracketed date range',
      { range: '[2025-03-01 00:00:00,2025-03-01 23:59:59]' },
      'range=[2025-03-01%2000%3A00%3A00%2C2025-03-01%2023%3A59%3A59]',
    ],
    [
      'brackets next to other params',
      { page: 1, sort: 'a[desc]', name: 'x y' },
      'page=1&sort=a[desc]&name=x%20y',
    ],
    ['a lone closing bracket', { v: 'a]' }, 'v=a]'],
  ])('%s', (_label, params, expected) => {
    expect(buildQueryString(params)).toBe(expected);
  });

  it('drops empty strings when asked (template export links)', () => {
    expect(buildQueryString({ name: '', type: '1', page: 0 }, { dropEmpty: true })).toBe('type=1&page=0');
  });
});

describe('withQuery', () => {
  it.each([
    ['/api/a', { page: 1 }, '/api/a?page=1'],
    ['/api/a?x=1', { page: 1 }, '/api/a?x=1&page=1'],
    ['/api/a', {}, '/api/a'],
  ])('%s + %j', (url, params, expected) => {
    expect(withQuery(url, params)).toBe(expected);
  });
});

describe('joinUrl', () => {
  it.each([
    ['', '/home', '/home'],
    ['', 'ms/m1/msg/config', '/ms/m1/msg/config'],
    ['/', '/api/a', '/api/a'],
    ['https://h', '/api/a', 'https://h/api/a'],
    ['https://h/', 'api/a', 'https://h/api/a'],
    ['https://h', 'http://other/x', 'http://other/x'],
  ])('%j + %j', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected);
  });
});
