/**
 * Reads one stream out of an OLE2 compound file (the container of Excel 97-2003 workbooks, MS-CFB).
 * Enough for .xls import: the FAT and its DIFAT chain, the directory, and the mini stream for small
 * streams. Any inconsistency throws, so a damaged or hostile file never loops or reads out of range.
 */

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const MAX_REGULAR_SECTOR = 0xfffffffa;
const DIRECTORY_ENTRY_BYTES = 128;

export class CompoundFileError extends Error {}

type Entry = { name: string; type: number; start: number; size: number };

export function readCompoundStream(file: Buffer, names: readonly string[]): Buffer | null {
  if (file.length < 512 || !file.subarray(0, 8).equals(SIGNATURE)) {
    throw new CompoundFileError('not a compound file');
  }
  const sectorShift = file.readUInt16LE(30);
  const miniShift = file.readUInt16LE(32);
  if ((sectorShift !== 9 && sectorShift !== 12) || miniShift !== 6) {
    throw new CompoundFileError('unsupported sector size');
  }
  const sectorSize = 1 << sectorShift;
  const miniSize = 1 << miniShift;
  // Only whole sectors count: a truncated file ends its readable part at the last complete one.
  const sectorCount = Math.floor(file.length / sectorSize) - 1;
  const sector = (n: number): Buffer => {
    if (n > MAX_REGULAR_SECTOR || n >= sectorCount) throw new CompoundFileError('sector out of range');
    const start = (n + 1) * sectorSize;
    return file.subarray(start, start + sectorSize);
  };

  // DIFAT: 109 entries in the header, then a chain of DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(file.readUInt32LE(76 + i * 4));
  let difat = file.readUInt32LE(68);
  const perDifat = sectorSize / 4 - 1;
  for (let guard = 0; difat !== END_OF_CHAIN && difat !== FREE_SECTOR; guard++) {
    if (guard > sectorCount) throw new CompoundFileError('DIFAT loop');
    const data = sector(difat);
    for (let i = 0; i < perDifat; i++) fatSectors.push(data.readUInt32LE(i * 4));
    difat = data.readUInt32LE(perDifat * 4);
  }
  const fatCount = file.readUInt32LE(44);
  const fat: number[] = [];
  for (const n of fatSectors.filter((s) => s <= MAX_REGULAR_SECTOR).slice(0, fatCount)) {
    const data = sector(n);
    for (let i = 0; i < sectorSize / 4; i++) fat.push(data.readUInt32LE(i * 4));
  }

  const chain = (start: number, table: number[], limit: number): number[] => {
    const sectors: number[] = [];
    for (let n = start; n !== END_OF_CHAIN; n = table[n]) {
      if (n === undefined || n > MAX_REGULAR_SECTOR || n >= table.length || sectors.length > limit) {
        throw new CompoundFileError('broken sector chain');
      }
      sectors.push(n);
    }
    return sectors;
  };
  const readChain = (start: number, size?: number): Buffer => {
    const data = Buffer.concat(chain(start, fat, sectorCount).map(sector));
    return size === undefined ? data : data.subarray(0, size);
  };

  const directory = readChain(file.readUInt32LE(48));
  const entries: Entry[] = [];
  for (let offset = 0; offset + DIRECTORY_ENTRY_BYTES <= directory.length; offset += DIRECTORY_ENTRY_BYTES) {
    const nameBytes = Math.min(directory.readUInt16LE(offset + 64), 64);
    entries.push({
      name: directory.toString('utf16le', offset, offset + Math.max(nameBytes - 2, 0)),
      type: directory[offset + 66],
      start: directory.readUInt32LE(offset + 116),
      size: directory.readUInt32LE(offset + 120),
    });
  }
  const root = entries[0];
  if (root === undefined || root.type !== 5) throw new CompoundFileError('no root entry');
  const wanted = entries.find((e) => e.type === 2 && names.includes(e.name));
  if (wanted === undefined) return null;
  if (wanted.size > file.length) throw new CompoundFileError('stream larger than the file');

  const cutoff = file.readUInt32LE(56);
  if (wanted.size >= cutoff) return readChain(wanted.start, wanted.size);

  // Small streams live in the mini stream (the root entry's data), in 64-byte mini sectors.
  const miniStream = readChain(root.start, root.size);
  const miniFatBytes = readChain(file.readUInt32LE(60));
  const miniFat: number[] = [];
  for (let i = 0; (i + 1) * 4 <= miniFatBytes.length; i++) miniFat.push(miniFatBytes.readUInt32LE(i * 4));
  const miniSectors = chain(wanted.start, miniFat, miniStream.length / miniSize);
  return Buffer.concat(
    miniSectors.map((n) => {
      if ((n + 1) * miniSize > miniStream.length) throw new CompoundFileError('mini sector out of range');
      return miniStream.subarray(n * miniSize, (n + 1) * miniSize);
    }),
  ).subarray(0, wanted.size);
}
