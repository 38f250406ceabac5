#!/usr/bin/env node
// Draws the extension's icon, images/icon.png (128×128): a disk-blue rounded square with three rising bars
// and an orange target line across them — the report view's chart in miniature. Plain Node (zlib for the
// PNG's deflate), so the icon can be regenerated without a graphics tool:  node images/make-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SS = 4; // supersampling per axis, for smooth edges

const BG = [0x14, 0x32, 0x4a];
const BAR = [0x5f, 0xc3, 0xe4];
const BAR_TOP = [0x9b, 0xe7, 0x8b];
const TARGET = [0xf5, 0xa6, 0x23];

/** The colour (and coverage) of one sub-sample at (x, y) in icon pixels. */
function sample(x, y) {
  // Rounded square, radius 22.
  const r = 22;
  const cx = Math.min(Math.max(x, r), SIZE - r), cy = Math.min(Math.max(y, r), SIZE - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  // Target line at y = 46..52, from x = 18 to 110.
  if (y >= 46 && y < 52 && x >= 18 && x < 110) return TARGET;
  // Three bars on a baseline at y = 106: heights 38, 56, 74 (the last one reaches past the target).
  const bars = [[24, 48, 38], [54, 78, 56], [84, 108, 74]];
  for (const [x0, x1, h] of bars) {
    if (x >= x0 && x < x1 && y < 106 && y >= 106 - h) return y < 106 - h + 8 ? BAR_TOP : BAR;
  }
  if (y >= 108 && y < 111 && x >= 18 && x < 110) return BAR; // baseline
  return BG;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let py = 0; py < SIZE; py++) {
  raw[py * (SIZE * 4 + 1)] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        if (!c) continue;
        r += c[0]; g += c[1]; b += c[2]; a++;
      }
    }
    const o = py * (SIZE * 4 + 1) + 1 + px * 4;
    // Colour averaged over covered samples (straight alpha), alpha from coverage.
    raw[o] = a ? Math.round(r / a) : 0;
    raw[o + 1] = a ? Math.round(g / a) : 0;
    raw[o + 2] = a ? Math.round(b / a) : 0;
    raw[o + 3] = Math.round((255 * a) / (SS * SS));
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = join(dirname(fileURLToPath(import.meta.url)), 'icon.png');
writeFileSync(out, png);
process.stdout.write(`${out}: ${png.length} bytes\n`);
