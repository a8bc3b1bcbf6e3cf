// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseContentDisposition, xlsxFileName } from './download';

describe('parseContentDisposition', () => {
  it.each<[string, string | null | undefined, string | undefined]>([
    ['no header', null, undefined],
    ['no file name', 'attachment', undefined],
    ['quoted', 'attachment; filename="report.xlsx"', 'report.xlsx'],
    ['unquoted', 'attachment; filename=report.xlsx', 'report.xlsx'],
    [
      'percent-encoded plain name',
      'attachment;filename=%E5%85%85%E7%94%B5%E6%97%A5%E6%8A%A5.xlsx',
      '充电日报.xlsx',
    ],
    [
      'RFC 5987 UTF-8',
      "attachment; filename*=UTF-8''%E5%9C%BA%E7%AB%99%20%E6%9C%88%E6%8A%A5.xlsx",
      '场站 月报.xlsx',
    ],
    [
      'RFC 5987 wins over filename',
      'attachment; filename="fallback.xlsx"; filename*=utf-8\'\'%E6%8A%A5%E8%A1%A8.xlsx',
      '报表.xlsx',
    ],
    ['RFC 5987 with a language', "attachment; filename*=UTF-8'zh-CN'%E6%8A%A5%E8%A1%A8.xlsx", '报表.xlsx'],
    ['escaped quote', 'attachment; filename="a\\"b.xlsx"', 'a"b.xlsx'],
    ['a literal percent sign', 'attachment; filename="100%.xlsx"', '100%.xlsx'],
    ['inline', 'inline; filename="photo.png"', 'photo.png'],
  ])('%s', (_label, header, expected) => {
    expect(parseContentDisposition(header)).toBe(expected);
  });
});

describe('xlsxFileName', () => {
  it.each([
    ['report', 'report.xlsx'],
    ['report.xlsx', 'report.xlsx'],
    ['REPORT.XLSX', 'REPORT.XLSX'],
    ['', 'export.xlsx'],
    ['月报', '月报.xlsx'],
  ])('%j -> %j', (name, expected) => {
    expect(xlsxFileName(name)).toBe(expected);
  });
});
