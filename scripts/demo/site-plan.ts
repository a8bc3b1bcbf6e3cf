/**
 * A drawn site plan of a demo depot (PNG, north up): the yard inside its green belt, the entrance road
 * on the south side, the office and the box transformer, and one row of bus bays per pile pair with the
 * piles between them. So the station monitor has a plan to show on a fresh install.
 */
import { deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB canvas with filled rectangles, encoded as PNG (8-bit truecolour, no filter). */
class Canvas {
  private readonly pixels: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = Buffer.alloc(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  rect(x: number, y: number, w: number, h: number, [r, g, b]: Rgb): void {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++)
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col++) {
        const i = (row * this.width + col) * 3;
        this.pixels[i] = r;
        this.pixels[i + 1] = g;
        this.pixels[i + 2] = b;
      }
  }

  png(): Buffer {
    const raw = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let row = 0; row < this.height; row++)
      this.pixels.copy(raw, row * (this.width * 3 + 1) + 1, row * this.width * 3, (row + 1) * this.width * 3);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8);
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

const GREEN: Rgb = [126, 178, 110];
const YARD: Rgb = [205, 208, 212];
const ROAD: Rgb = [150, 154, 160];
const MARKING: Rgb = [245, 245, 245];
const YELLOW: Rgb = [240, 196, 64];
const OFFICE: Rgb = [120, 146, 186];
const TRANSFORMER: Rgb = [214, 120, 72];
const PILE: Rgb = [36, 112, 88];

/** The plan of a depot with `piles` double-gun piles (two bays each), 480 x 320 px. */
export function depotSitePlanPng(piles: number): Buffer {
  const c = new Canvas(480, 320, GREEN);
  c.rect(16, 16, 448, 270, YARD);
  // Entrance road through the green belt on the south side, with its centre line.
  c.rect(200, 286, 80, 34, ROAD);
  c.rect(238, 290, 4, 30, YELLOW);
  c.rect(200, 250, 80, 36, ROAD);
  // Office and box transformer by the entrance.
  c.rect(40, 220, 110, 50, OFFICE);
  c.rect(330, 228, 36, 30, TRANSFORMER);
  // Bays: two rows facing a driving lane; a pile between each pair of bays.
  const perRow = Math.ceil(piles / 2);
  const bayWidth = 18;
  const pitch = Math.floor(400 / perRow);
  for (let p = 0; p < piles; p++) {
    const row = p < perRow ? 0 : 1;
    const x = 40 + (p % perRow) * pitch;
    const y = row === 0 ? 30 : 150;
    for (const bay of [0, 1]) {
      const bx = x + bay * (bayWidth + 6);
      c.rect(bx, y, bayWidth, 70, MARKING);
      c.rect(bx + 2, y + 2, bayWidth - 4, 66, YARD);
    }
    c.rect(x + bayWidth, y + (row === 0 ? 58 : 2), 6, 10, PILE);
  }
  c.rect(30, 108, 420, 34, ROAD);
  for (let x = 40; x < 440; x += 24) c.rect(x, 124, 12, 2, MARKING);
  return c.png();
}
