// Renders the About page's magazine cover, public/about/cover.jpg (900x1200), from an SVG drawn
// here: masthead, cover lines, an athlete built from simple shapes, issue line and a barcode.
//
//   node scripts/make-about-cover.mjs [output.jpg]
//
// The masthead uses Anton, the display face of the site (from @fontsource/anton). librsvg only
// finds fonts through fontconfig and cannot read web fonts, so the script unpacks the WOFF file
// into a plain TrueType file in a temporary folder and points fontconfig at it before sharp
// loads. Without the package it falls back to a condensed system sans.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'public/about/cover.jpg'));

// ---- fonts -------------------------------------------------------------------------------------

/** Unpacks a WOFF 1.0 font into an sfnt (TrueType/OpenType) buffer. */
function woffToSfnt(woff) {
  if (woff.toString('ascii', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 file');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + i * 20;
    const tag = woff.readUInt32BE(at);
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const checksum = woff.readUInt32BE(at + 16);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({ tag, checksum, data: compLength < origLength ? zlib.inflateSync(raw) : raw });
  }
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 16 * 2 ** entrySelector;
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(count * 16 - searchRange, 10);
  const parts = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    header.writeUInt32BE(t.tag, at);
    header.writeUInt32BE(t.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(t.data.length, at + 12);
    const pad = (4 - (t.data.length % 4)) % 4;
    parts.push(t.data, Buffer.alloc(pad));
    offset += t.data.length + pad;
  });
  return Buffer.concat(parts);
}

const fontDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cover-fonts-'));
let DISPLAY = "'DejaVu Sans Condensed', 'Liberation Sans Narrow', sans-serif";
const antonWoff = path.join(root, 'node_modules/@fontsource/anton/files/anton-latin-400-normal.woff');
if (fs.existsSync(antonWoff)) {
  fs.writeFileSync(path.join(fontDir, 'Anton-Regular.ttf'), woffToSfnt(fs.readFileSync(antonWoff)));
  DISPLAY = `Anton, ${DISPLAY}`;
} else {
  console.warn('@fontsource/anton not found: using a system condensed sans for the masthead');
}
fs.writeFileSync(
  path.join(fontDir, 'fonts.conf'),
  `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${fontDir}</dir>
  <cachedir>${path.join(fontDir, 'cache')}</cachedir>
</fontconfig>
`,
);
process.env.FONTCONFIG_FILE = path.join(fontDir, 'fonts.conf');
const { default: sharp } = await import('sharp'); // after FONTCONFIG_FILE is set

// ---- drawing -----------------------------------------------------------------------------------

const W = 900;
const H = 1200;
const RED = '#ef4444';
const DEEP_RED = '#7f1d1d';
const SANS = "'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif";

/** Deterministic pseudo-random numbers, so every run draws the same cover. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const poly = (pts) => pts.map(([x, y]) => `${x},${y}`).join(' ');

// The athlete, pictogram style: limbs are thick round-capped polylines, mid-air with the ball
// raised in the right hand.
const joints = {
  head: [546, 302],
  neck: [538, 408],
  hip: [494, 618],
  rArm: [[560, 404], [644, 330], [690, 236]],
  lArm: [[520, 410], [430, 452], [372, 386]],
  rLeg: [[504, 612], [606, 700], [566, 846]],
  lLeg: [[484, 622], [432, 786], [330, 872]],
  ball: [714, 176],
};

function athlete(fill, dx = 0, dy = 0) {
  const j = joints;
  const limb = (pts, width) =>
    `<polyline points="${poly(pts.map(([x, y]) => [x + dx, y + dy]))}" fill="none" stroke="${fill}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;
  return `
    ${limb([j.neck, j.hip], 92)}
    ${limb(j.rArm, 50)}
    ${limb(j.lArm, 50)}
    ${limb(j.rLeg, 60)}
    ${limb(j.lLeg, 60)}
    <circle cx="${j.head[0] + dx}" cy="${j.head[1] + dy}" r="44" fill="${fill}"/>`;
}

function ball() {
  const [x, y] = joints.ball;
  const r = 54;
  return `
    <g transform="translate(${x} ${y}) rotate(-24)">
      <circle r="${r}" fill="#f97316"/>
      <circle r="${r}" fill="url(#ballShade)"/>
      <g fill="none" stroke="#1c1917" stroke-width="4">
        <line x1="${-r}" y1="0" x2="${r}" y2="0"/>
        <line x1="0" y1="${-r}" x2="0" y2="${r}"/>
        <path d="M ${-r * 0.72} ${-r * 0.7} Q ${-r * 0.25} 0 ${-r * 0.72} ${r * 0.7}"/>
        <path d="M ${r * 0.72} ${-r * 0.7} Q ${r * 0.25} 0 ${r * 0.72} ${r * 0.7}"/>
      </g>
    </g>`;
}

// Speed streaks behind the athlete.
function streaks() {
  const rnd = random(23);
  let s = '';
  for (let i = 0; i < 18; i++) {
    const y = 260 + rnd() * 640;
    const x = 120 + rnd() * 360;
    const len = 120 + rnd() * 260;
    const wdt = 2 + rnd() * 7;
    const op = (0.08 + rnd() * 0.22).toFixed(2);
    s += `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${len.toFixed(1)}" height="${wdt.toFixed(1)}" rx="${(wdt / 2).toFixed(1)}" fill="#fff" opacity="${op}" transform="rotate(-32 ${x.toFixed(1)} ${y.toFixed(1)})"/>`;
  }
  return s;
}

// An EAN-13 style barcode: real EAN-13 patterns for a made-up number with a valid check digit.
function barcode(x, y) {
  const digits = '978202411073';
  const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  const code = digits + String((10 - (sum % 10)) % 10);
  const L = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];
  const G = ['0100111', '0110011', '0011011', '0100001', '0011101', '0111001', '0000101', '0010001', '0001001', '0010111'];
  const R = ['1110010', '1100110', '1101100', '1000010', '1011100', '1001110', '1010000', '1000100', '1001000', '1110100'];
  const parity = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];
  const first = Number(code[0]);
  let bits = '101';
  for (let i = 1; i <= 6; i++) bits += (parity[first][i - 1] === 'L' ? L : G)[Number(code[i])];
  bits += '01010';
  for (let i = 7; i <= 12; i++) bits += R[Number(code[i])];
  bits += '101';
  const mod = 1.6;
  const guard = new Set([0, 1, 2, 45, 46, 47, 48, 49, 92, 93, 94]);
  let bars = '';
  for (let i = 0; i < bits.length; i++) {
    if (bits[i] !== '1') continue;
    const h = guard.has(i) ? 86 : 78;
    bars += `<rect x="${(x + 18 + i * mod).toFixed(1)}" y="${y + 10}" width="${mod}" height="${h}" fill="#0a0a0a"/>`;
  }
  const text = (s, tx, anchor = 'start') =>
    `<text x="${tx}" y="${y + 104}" font-family="${SANS}" font-size="15" fill="#0a0a0a" text-anchor="${anchor}">${s}</text>`;
  return `
    <rect x="${x}" y="${y}" width="${18 * 2 + bits.length * mod}" height="112" fill="#fafafa"/>
    ${bars}
    ${text(code[0], x + 6)}
    ${text(code.slice(1, 7), x + 18 + 3 * mod + 21 * mod, 'middle')}
    ${text(code.slice(7), x + 18 + 50 * mod + 21 * mod, 'middle')}`;
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <radialGradient id="glow" cx="0.56" cy="0.42" r="0.62">
      <stop offset="0" stop-color="${DEEP_RED}" stop-opacity="0.95"/>
      <stop offset="0.55" stop-color="#3b0a0a" stop-opacity="0.7"/>
      <stop offset="1" stop-color="#0a0a0a" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0a0a0a" stop-opacity="0"/>
      <stop offset="1" stop-color="#0a0a0a" stop-opacity="0.95"/>
    </linearGradient>
    <radialGradient id="ballShade" cx="0.35" cy="0.3" r="0.75">
      <stop offset="0" stop-color="#fff" stop-opacity="0.35"/>
      <stop offset="0.5" stop-color="#fff" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.45"/>
    </radialGradient>
    <pattern id="dots" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(20)">
      <circle cx="7" cy="7" r="2.4" fill="#fff"/>
    </pattern>
    <radialGradient id="dotFade" cx="0.8" cy="0.25" r="0.55">
      <stop offset="0" stop-color="#fff" stop-opacity="0.16"/>
      <stop offset="1" stop-color="#fff" stop-opacity="0"/>
    </radialGradient>
    <mask id="dotMask"><rect width="${W}" height="${H}" fill="url(#dotFade)"/></mask>
  </defs>

  <!-- ground -->
  <rect width="${W}" height="${H}" fill="#0a0a0a"/>
  <rect width="${W}" height="${H}" fill="url(#glow)"/>
  <rect width="${W}" height="${H}" fill="url(#dots)" mask="url(#dotMask)"/>
  <polygon points="${poly([[0, 990], [W, 860], [W, H], [0, H]])}" fill="#111" opacity="0.9"/>
  <rect y="760" width="${W}" height="${H - 760}" fill="url(#floor)"/>

  <!-- top strip -->
  <text x="48" y="58" font-family="${SANS}" font-weight="bold" font-size="20" letter-spacing="4" fill="${RED}">THE HIGHLIGHT ISSUE</text>
  <text x="${W - 48}" y="58" font-family="${SANS}" font-size="18" letter-spacing="2" fill="#d4d4d4" text-anchor="end">NOVEMBER 2024 · ISSUE 07</text>

  <!-- masthead, behind the athlete -->
  <text x="${W / 2}" y="236" font-family="${DISPLAY}" font-size="150" fill="#fafafa" text-anchor="middle" letter-spacing="1">GET IT ON TAPE</text>

  <!-- athlete -->
  <g>${streaks()}</g>
  <g opacity="0.95">${athlete(RED, 16, 12)}</g>
  ${athlete('#fafafa')}
  <text transform="translate(${(joints.neck[0] + joints.hip[0]) / 2 + 4} ${(joints.neck[1] + joints.hip[1]) / 2 + 30}) rotate(11)"
        font-family="${DISPLAY}" font-size="70" fill="${RED}" text-anchor="middle">23</text>
  ${ball()}

  <!-- cover lines, left column -->
  <g font-family="${SANS}" fill="#fafafa">
    <rect x="48" y="402" width="56" height="6" fill="${RED}"/>
    <text x="48" y="448" font-family="${DISPLAY}" font-size="44">EVERY</text>
    <text x="48" y="494" font-family="${DISPLAY}" font-size="44">ANGLE.</text>
    <text x="48" y="524" font-size="17" fill="#d4d4d4">Several cameras.</text>
    <text x="48" y="546" font-size="17" fill="#d4d4d4">One game.</text>
    <text x="48" y="568" font-size="17" fill="#d4d4d4">Your athlete.</text>

    <rect x="48" y="618" width="56" height="6" fill="${RED}"/>
    <text x="48" y="662" font-family="${DISPLAY}" font-size="36">FOUND</text>
    <text x="48" y="702" font-family="${DISPLAY}" font-size="36">IN THE CROWD</text>
    <text x="48" y="730" font-size="17" fill="#d4d4d4">How a number and a face</text>
    <text x="48" y="752" font-size="17" fill="#d4d4d4">build a highlight reel</text>
  </g>

  <!-- right column -->
  <g font-family="${SANS}" fill="#fafafa" text-anchor="end">
    <text x="${W - 48}" y="470" font-family="${DISPLAY}" font-size="64" fill="${RED}">7–10</text>
    <text x="${W - 48}" y="500" font-size="17" font-weight="bold" letter-spacing="2">BUSINESS DAYS</text>
    <text x="${W - 48}" y="522" font-size="17" fill="#d4d4d4">from final buzzer</text>
    <text x="${W - 48}" y="544" font-size="17" fill="#d4d4d4">to your reel</text>
  </g>

  <!-- main cover line -->
  <text x="48" y="968" font-family="${SANS}" font-weight="bold" font-size="22" letter-spacing="5" fill="${RED}">SPECIAL REPORT</text>
  <text x="44" y="1052" font-family="${DISPLAY}" font-size="92" fill="#fafafa">THE NEXT</text>
  <text x="44" y="1148" font-family="${DISPLAY}" font-size="92" fill="#fafafa">GENERATION</text>
  <text x="48" y="1178" font-family="${SANS}" font-size="17" fill="#a3a3a3">Youth sports, filmed like the pros.</text>

  ${barcode(W - 48 - (36 + 95 * 1.6), 1040)}

  <!-- frame -->
  <rect x="16" y="16" width="${W - 32}" height="${H - 32}" fill="none" stroke="#fafafa" stroke-opacity="0.12" stroke-width="2"/>
</svg>`;

fs.mkdirSync(path.dirname(out), { recursive: true });
await sharp(Buffer.from(svg)).jpeg({ quality: 86, mozjpeg: true }).toFile(out);
fs.rmSync(fontDir, { recursive: true, force: true });
console.log(`${path.relative(root, out)} ${fs.statSync(out).size} bytes`);
