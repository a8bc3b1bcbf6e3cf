/**
 * Writes a minimal Excel 97-2003 workbook (BIFF8 in an OLE2 compound file): one sheet of strings and
 * numbers. Nothing here exports .xls to users (exports are .xlsx); tests and fixtures use it to send
 * real .xls bytes through the import routes. Strings go to the shared string table, split across
 * CONTINUE records when it grows past a record's 8224 bytes, as Excel does.
 */

const SECTOR = 512;
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const FAT_SECTOR = 0xfffffffd;
const NO_STREAM = 0xffffffff;
const MAX_RECORD_DATA = 8224;

function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

function bof(kind: number): Buffer {
  const data = Buffer.alloc(16);
  data.writeUInt16LE(0x0600, 0);
  data.writeUInt16LE(kind, 2);
  data.writeUInt16LE(0x0dbb, 4);
  data.writeUInt16LE(0x07cc, 6);
  return record(0x0809, data);
}

/** The SST record and its CONTINUE records; a string split across them restarts with a flags byte. */
function sharedStrings(strings: string[]): Buffer[] {
  const records: Buffer[] = [];
  const head = Buffer.alloc(8);
  head.writeUInt32LE(strings.length, 0);
  head.writeUInt32LE(strings.length, 4);
  let current: Buffer[] = [head];
  let size = 8;
  let type = 0x00fc;
  const flush = () => {
    records.push(record(type, Buffer.concat(current)));
    type = 0x003c;
    current = [];
    size = 0;
  };
  for (const text of strings) {
    if (size + 3 + 2 > MAX_RECORD_DATA) flush();
    const header = Buffer.alloc(3);
    header.writeUInt16LE(text.length, 0);
    header[2] = 1; // UTF-16
    current.push(header);
    size += 3;
    let chars = Buffer.from(text, 'utf16le');
    while (chars.length > 0) {
      const room = Math.floor((MAX_RECORD_DATA - size) / 2) * 2;
      if (room === 0) {
        flush();
        current.push(Buffer.from([1]));
        size = 1;
        continue;
      }
      const part = chars.subarray(0, room);
      current.push(part);
      size += part.length;
      chars = chars.subarray(part.length);
    }
  }
  flush();
  return records;
}

function workbookStream(rows: readonly (readonly (string | number | null)[])[]): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const cells: Buffer[] = [];
  rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (value === null || value === '') return;
      if (typeof value === 'number') {
        const data = Buffer.alloc(14);
        data.writeUInt16LE(r, 0);
        data.writeUInt16LE(c, 2);
        data.writeDoubleLE(value, 6);
        cells.push(record(0x0203, data));
        return;
      }
      let at = index.get(value);
      if (at === undefined) {
        at = strings.push(value) - 1;
        index.set(value, at);
      }
      const data = Buffer.alloc(10);
      data.writeUInt16LE(r, 0);
      data.writeUInt16LE(c, 2);
      data.writeUInt32LE(at, 6);
      cells.push(record(0x00fd, data));
    }),
  );
  const sheetName = Buffer.from('Sheet1', 'latin1');
  const boundSheetData = Buffer.concat([Buffer.alloc(6), Buffer.from([sheetName.length, 0]), sheetName]);
  const globalsBeforeSheet = [bof(0x0005), record(0x0042, Buffer.from([0xb0, 0x04]))];
  const boundSheet = record(0x0085, boundSheetData);
  const globalsAfter = [...sharedStrings(strings), record(0x000a, Buffer.alloc(0))];
  const sheetOffset =
    [...globalsBeforeSheet, boundSheet, ...globalsAfter].reduce((n, b) => n + b.length, 0) + 0;
  boundSheet.writeUInt32LE(sheetOffset, 4);
  const stream = Buffer.concat([
    ...globalsBeforeSheet,
    boundSheet,
    ...globalsAfter,
    bof(0x0010),
    ...cells,
    record(0x000a, Buffer.alloc(0)),
  ]);
  // At least 4096 bytes, so the stream lives in regular sectors (Excel pads the same way).
  return stream.length >= 4096 ? stream : Buffer.concat([stream, Buffer.alloc(4096 - stream.length)]);
}

function directoryEntry(name: string, type: number, child: number, start: number, size: number): Buffer {
  const entry = Buffer.alloc(128);
  if (name !== '') {
    entry.write(name, 0, 'utf16le');
    entry.writeUInt16LE((name.length + 1) * 2, 64);
  }
  entry[66] = type;
  entry[67] = 1;
  entry.writeUInt32LE(NO_STREAM, 68);
  entry.writeUInt32LE(NO_STREAM, 72);
  entry.writeUInt32LE(child, 76);
  entry.writeUInt32LE(start, 116);
  entry.writeUInt32LE(size, 120);
  return entry;
}

/** An .xls file whose first sheet holds `rows` (row 1 first). */
export function writeMinimalXls(rows: readonly (readonly (string | number | null)[])[]): Buffer {
  const stream = workbookStream(rows);
  const streamSectors = Math.ceil(stream.length / SECTOR);
  // Layout: FAT sectors, one directory sector, then the Workbook stream.
  let fatSectors = 1;
  while (fatSectors * (SECTOR / 4) < fatSectors + 1 + streamSectors) fatSectors++;
  const directorySector = fatSectors;
  const firstStreamSector = fatSectors + 1;
  const totalSectors = firstStreamSector + streamSectors;

  const fat = Buffer.alloc(fatSectors * SECTOR, 0xff);
  for (let i = 0; i < fatSectors; i++) fat.writeUInt32LE(FAT_SECTOR, i * 4);
  fat.writeUInt32LE(END_OF_CHAIN, directorySector * 4);
  for (let i = 0; i < streamSectors; i++) {
    const n = firstStreamSector + i;
    fat.writeUInt32LE(i === streamSectors - 1 ? END_OF_CHAIN : n + 1, n * 4);
  }

  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24);
  header.writeUInt16LE(0x0003, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(fatSectors, 44);
  header.writeUInt32LE(directorySector, 48);
  header.writeUInt32LE(4096, 56);
  header.writeUInt32LE(END_OF_CHAIN, 60);
  header.writeUInt32LE(END_OF_CHAIN, 68);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatSectors ? i : FREE_SECTOR, 76 + i * 4);

  const directory = Buffer.concat([
    directoryEntry('Root Entry', 5, 1, END_OF_CHAIN, 0),
    directoryEntry('Workbook', 2, NO_STREAM, firstStreamSector, stream.length),
    directoryEntry('', 0, NO_STREAM, 0, 0),
    directoryEntry('', 0, NO_STREAM, 0, 0),
  ]);
  const body = Buffer.alloc(totalSectors * SECTOR);
  fat.copy(body, 0);
  directory.copy(body, directorySector * SECTOR);
  stream.copy(body, firstStreamSector * SECTOR);
  return Buffer.concat([header, body]);
}
