// Renders the numbers 0 to 99 in the bold sans fonts Debian ships (fonts-dejavu-core,
// fonts-liberation) as white-on-black masks, the material train.py builds its shirts from.
// Writes glyphs.bin: for each font and number, 64 × 128 bytes (rows of the mask), numbers 0..99
// in order, fonts in the order printed.
//   node tools/number-reader/render-glyphs.mjs /tmp/number-reader
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const out = process.argv[2] ?? '/tmp/number-reader';
const H = 64;
const W = 128;
// [family, weight, stroke, plain one]: a stroke thickens the digits toward the heavy block numbers
// most kits wear; a plain one draws 1 as a bare bar (the font's capital I), as many kits print it.
const FONTS = [
  ['DejaVu Sans', 'bold', 3, true],
  ['Liberation Sans', 'bold', 0, true],
  ['Liberation Sans Narrow', 'bold', 3, true],
  ['DejaVu Sans', 'bold', 0],
  ['DejaVu Sans', 'bold', 4],
  ['DejaVu Sans Condensed', 'bold', 0],
  ['Liberation Sans', 'bold', 0],
  ['Liberation Sans', 'bold', 5],
  ['Liberation Sans Narrow', 'bold', 0],
  ['Liberation Sans Narrow', 'bold', 4],
  ['DejaVu Sans Mono', 'bold', 0],
  ['DejaVu Sans Mono', 'bold', 4],
  ['Liberation Mono', 'bold', 3],
  ['DejaVu Serif', 'bold', 0],
  ['Liberation Serif', 'bold', 3],
  ['DejaVu Sans', 'normal', 0],
  ['Liberation Sans Narrow', 'normal', 0],
];
fs.mkdirSync(out, { recursive: true });
const masks = [];
for (const [family, weight, stroke, plainOne] of FONTS) {
  for (let n = 0; n < 100; n++) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="black"/>` +
      `<text x="${W / 2}" y="${H * 0.86}" font-family="${family}" font-weight="${weight}" font-size="${H * 1.12}" fill="white" stroke="white" stroke-width="${stroke}" stroke-linejoin="round" text-anchor="middle">${plainOne ? String(n).replaceAll('1', 'I') : n}</text></svg>`;
    const { data } = await sharp(Buffer.from(svg)).grayscale().raw().toBuffer({ resolveWithObject: true });
    masks.push(data);
  }
  console.log(family, weight, stroke, plainOne ? 'plain 1' : '');
}
fs.writeFileSync(path.join(out, 'glyphs.bin'), Buffer.concat(masks));
console.log(`${masks.length} masks → ${path.join(out, 'glyphs.bin')}`);
