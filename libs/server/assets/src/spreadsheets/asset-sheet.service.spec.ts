import { labelNamesOf, parseSheetDate, parseSheetDateTime, parseSheetTime } from './asset-sheet.service';

/** What the sheet reader gives for a cell Excel stores as a date: the text of the Date it read. */
const dateCell = (iso: string) => new Date(iso).toString();

describe('sheet cells as body values', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024/3/5', '2024-03-05'],
    ['2024.11.09', '2024-11-09'],
    [dateCell('2024-03-05T00:00:00Z'), '2024-03-05'],
    ['05/03/2024', '05/03/2024'],
    ['soon', 'soon'],
  ])('date %s -> %s', (text, expected) => {
    expect(parseSheetDate(text)).toBe(expected);
  });

  it.each([
    ['8:00', '08:00'],
    ['08:00:59', '08:00'],
    [dateCell('1899-12-30T05:30:00Z'), '05:30'],
    ['25:00', '25:00'],
  ])('time %s -> %s', (text, expected) => {
    expect(parseSheetTime(text)).toBe(expected);
  });

  it('a date-time cell is read in the business time zone', () => {
    expect(parseSheetDateTime(dateCell('2031-01-01T09:15:00Z'))).toBe('2031-01-01T09:15:00+08:00');
    expect(parseSheetDateTime('2031-01-01')).toBe('2031-01-01T00:00:00+08:00');
  });

  it('a labels cell lists names between commas, 、, semicolons or line breaks', () => {
    expect(labelNamesOf('WeChat、GB/T 2015, DC ，快充；其他\nAC;')).toEqual([
      'WeChat',
      'GB/T 2015',
      'DC',
      '快充',
      '其他',
      'AC',
    ]);
    expect(labelNamesOf(' 、, ')).toEqual([]);
  });
});
