import { CompoundFileError, readCompoundStream } from './compound-file';

/**
 * Reads the cells of the first worksheet of an Excel 97-2003 workbook (BIFF8, MS-XLS): shared strings
 * (with CONTINUE records), inline strings, numbers (NUMBER, RK, MULRK), booleans and cached formula
 * results. Cells come back as text, the way an import reads them; number formats (dates) are not
 * applied, so a date cell reads as its serial number.
 */

const BOF = 0x0809;
const EOF = 0x000a;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const CONTINUE = 0x003c;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;
const BIFF8_VERSION = 0x0600;

export class XlsFormatError extends Error {}

/** Cell texts by 1-based row, then 1-based column. */
export type SheetCells = Map<number, Map<number, string>>;

type RecordAt = { type: number; offset: number; data: Buffer };

export function readXlsFirstSheet(file: Buffer): SheetCells {
  try {
    return readFirstSheet(file);
  } catch (error) {
    // A record shorter than its type says (a damaged or crafted file) reads past its end.
    if (error instanceof RangeError) throw new XlsFormatError('damaged record');
    throw error;
  }
}

function readFirstSheet(file: Buffer): SheetCells {
  let stream: Buffer | null;
  try {
    stream = readCompoundStream(file, ['Workbook']);
  } catch (error) {
    if (error instanceof CompoundFileError) throw new XlsFormatError(error.message);
    throw error;
  }
  if (stream === null) {
    throw new XlsFormatError('no Workbook stream (Excel 5.0/95 and older files are not supported)');
  }
  const records = readRecords(stream, 0);
  const bof = records[0];
  if (bof === undefined || bof.type !== BOF || bof.data.readUInt16LE(0) !== BIFF8_VERSION) {
    throw new XlsFormatError('not a BIFF8 workbook');
  }
  let strings: string[] = [];
  let sheetOffset: number | undefined;
  for (let i = 0; i < records.length && records[i].type !== EOF; i++) {
    const record = records[i];
    if (record.type === BOUNDSHEET && sheetOffset === undefined && record.data[5] === 0) {
      sheetOffset = record.data.readUInt32LE(0);
    } else if (record.type === SST) {
      const segments = [record.data];
      while (records[i + 1]?.type === CONTINUE) segments.push(records[++i].data);
      strings = readSharedStrings(segments);
    }
  }
  if (sheetOffset === undefined) throw new XlsFormatError('the workbook has no worksheet');
  return readSheet(readRecords(stream, sheetOffset), strings);
}

function readRecords(stream: Buffer, start: number): RecordAt[] {
  const records: RecordAt[] = [];
  let offset = start;
  let depth = 0;
  while (offset + 4 <= stream.length) {
    const type = stream.readUInt16LE(offset);
    const size = stream.readUInt16LE(offset + 2);
    if (offset + 4 + size > stream.length) throw new XlsFormatError('truncated record');
    records.push({ type, offset, data: stream.subarray(offset + 4, offset + 4 + size) });
    offset += 4 + size;
    if (type === BOF) depth++;
    if (type === EOF && --depth <= 0) break;
  }
  return records;
}

function readSheet(records: RecordAt[], strings: string[]): SheetCells {
  const cells: SheetCells = new Map();
  const put = (row: number, column: number, text: string) => {
    let line = cells.get(row + 1);
    if (line === undefined) cells.set(row + 1, (line = new Map()));
    line.set(column + 1, text);
  };
  for (let i = 0; i < records.length; i++) {
    const { type, data } = records[i];
    switch (type) {
      case LABELSST: {
        const text = strings[data.readUInt32LE(6)];
        if (text === undefined) throw new XlsFormatError('shared string out of range');
        put(data.readUInt16LE(0), data.readUInt16LE(2), text);
        break;
      }
      case LABEL:
        put(data.readUInt16LE(0), data.readUInt16LE(2), readInlineString(data, 6));
        break;
      case NUMBER:
        put(data.readUInt16LE(0), data.readUInt16LE(2), numberText(data.readDoubleLE(6)));
        break;
      case RK:
        put(data.readUInt16LE(0), data.readUInt16LE(2), numberText(rkValue(data.readUInt32LE(6))));
        break;
      case MULRK: {
        const row = data.readUInt16LE(0);
        const first = data.readUInt16LE(2);
        const count = (data.length - 6) / 6;
        for (let k = 0; k < count; k++) {
          put(row, first + k, numberText(rkValue(data.readUInt32LE(4 + k * 6 + 2))));
        }
        break;
      }
      case BOOLERR:
        if (data[7] === 0) put(data.readUInt16LE(0), data.readUInt16LE(2), data[6] ? 'TRUE' : 'FALSE');
        break;
      case FORMULA: {
        const row = data.readUInt16LE(0);
        const column = data.readUInt16LE(2);
        if (data.readUInt16LE(12) !== 0xffff) {
          put(row, column, numberText(data.readDoubleLE(6)));
        } else if (data[6] === 0 && records[i + 1]?.type === STRING) {
          put(row, column, readInlineString(records[++i].data, 0));
        } else if (data[6] === 1) {
          put(row, column, data[8] ? 'TRUE' : 'FALSE');
        }
        break;
      }
      default:
        break;
    }
  }
  return cells;
}

function rkValue(rk: number): number {
  const divided = (rk & 1) === 1;
  let value: number;
  if ((rk & 2) === 2) {
    value = rk >> 2; // a signed 30-bit integer
  } else {
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32LE(rk & 0xfffffffc, 4);
    value = bytes.readDoubleLE(0);
  }
  return divided ? value / 100 : value;
}

function numberText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(0) : String(value);
}

/** XLUnicodeString: a 16-bit length, a flags byte, then 8-bit or UTF-16 characters. */
function readInlineString(data: Buffer, offset: number): string {
  const length = data.readUInt16LE(offset);
  const wide = (data[offset + 2] & 1) === 1;
  const start = offset + 3;
  return wide
    ? data.toString('utf16le', start, start + length * 2)
    : data.toString('latin1', start, start + length);
}

/**
 * The shared string table. A string may run over into the next CONTINUE record; where its characters
 * do, the continuation starts with a fresh flags byte saying whether they are 8-bit or UTF-16.
 */
function readSharedStrings(segments: Buffer[]): string[] {
  let segment = 0;
  let offset = 0;
  const ensure = (bytes: number) => {
    while (offset + bytes > segments[segment].length) {
      if (offset < segments[segment].length) throw new XlsFormatError('shared string header split');
      segment++;
      offset = 0;
      if (segment >= segments.length) throw new XlsFormatError('truncated shared strings');
    }
  };
  const u8 = () => (ensure(1), segments[segment][offset++]);
  const u16 = () => {
    ensure(2);
    const v = segments[segment].readUInt16LE(offset);
    offset += 2;
    return v;
  };
  const u32 = () => {
    ensure(4);
    const v = segments[segment].readUInt32LE(offset);
    offset += 4;
    return v;
  };
  const skip = (bytes: number) => {
    let left = bytes;
    while (left > 0) {
      if (offset >= segments[segment].length) {
        segment++;
        offset = 0;
        if (segment >= segments.length) throw new XlsFormatError('truncated shared strings');
      }
      const step = Math.min(left, segments[segment].length - offset);
      offset += step;
      left -= step;
    }
  };

  u32(); // total references
  const unique = u32();
  const strings: string[] = [];
  for (let s = 0; s < unique; s++) {
    const length = u16();
    const flags = u8();
    let wide = (flags & 1) === 1;
    const runs = flags & 8 ? u16() : 0;
    const extension = flags & 4 ? u32() : 0;
    let text = '';
    let left = length;
    while (left > 0) {
      if (offset >= segments[segment].length) {
        segment++;
        offset = 0;
        if (segment >= segments.length) throw new XlsFormatError('truncated shared strings');
        wide = (segments[segment][offset++] & 1) === 1;
      }
      const width = wide ? 2 : 1;
      const available = Math.floor((segments[segment].length - offset) / width);
      const take = Math.min(left, available);
      if (take === 0) throw new XlsFormatError('broken shared string');
      const end = offset + take * width;
      text += segments[segment].toString(wide ? 'utf16le' : 'latin1', offset, end);
      offset = end;
      left -= take;
    }
    skip(runs * 4 + extension);
    strings.push(text);
  }
  return strings;
}
