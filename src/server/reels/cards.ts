// The still pictures a reel is made with: the intro card (athlete, team, jersey number, event),
// the outro card (the brand) and the spotlight ring. Drawn as SVG and rasterised by sharp, so no
// font or image has to be downloaded; the text uses the system's sans-serif font (DejaVu from
// Debian's fonts-dejavu-core, with fonts-droid-fallback for Chinese, Japanese and Korean names;
// the CI installs both).
//
// Every line is measured as it will be drawn (rasterised alone, its inked pixels counted), so a
// long name shrinks, or wraps to two lines, until it fits inside the card's safe area in any
// script and either format (cardSafeArea: the vertical cut keeps clear of the platforms' buttons).
import sharp from 'sharp';
import { BRAND } from '../../common/messages';

export interface IntroText {
  name: string;
  teamName: string | null;
  jerseyNumber: number | string | null;
  event: string;
}

/** Where a card's text may go, as shares of its width (sides) and height (top, bottom) kept free. */
export interface SafeArea {
  side: number;
  top: number;
  bottom: number;
}

/**
 * The wide reel keeps the broadcast title-safe 10% on every side. The vertical social cut is
 * watched under the platforms' own buttons and captions: their guidance for 9:16 video keeps
 * about the top 14% (account name, tabs), the bottom 35% (caption, music, comment field) and a
 * column on the right (like, comment, share: about 15% of the width) free of text; the text stays
 * centred, so both sides keep that 15%.
 */
export function cardSafeArea(width: number, height: number): SafeArea {
  return width > height ? { side: 0.1, top: 0.1, bottom: 0.1 } : { side: 0.15, top: 0.14, bottom: 0.35 };
}
const FONT = 'DejaVu Sans, sans-serif';
/** A line's height as a share of its font size (DejaVu's ascent and descent with a little air). */
const LINE_HEIGHT = 1.25;

const escape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Scripts written without spaces between words: a line of them may break between any two letters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** The inked width of `text` at `size` px, measured on the rasterised glyphs (0 for blank text). */
async function inkWidth(text: string, size: number, weight: number): Promise<number> {
  const width = Math.ceil(size * (text.length + 2) * 1.3);
  const height = Math.ceil(size * 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="${Math.round(size / 2)}" y="${Math.round(size * 1.4)}" font-family="${FONT}" font-size="${size}" font-weight="${weight}" fill="#ffffff">${escape(text)}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let left = info.width;
  let right = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[(y * info.width + x) * info.channels + 3]! > 0) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  return right < 0 ? 0 : right - left + 1;
}

/** The largest size up to `size` at which every one of `lines` is at most `maxWidth` px wide. */
async function fittedSize(lines: string[], size: number, maxWidth: number, weight: number): Promise<number> {
  const REFERENCE = 100;
  const widest = Math.max(...(await Promise.all(lines.map((l) => inkWidth(l, REFERENCE, weight)))));
  let fitted = widest > 0 ? Math.min(size, Math.floor((REFERENCE * maxWidth) / widest)) : size;
  // Glyph widths do not scale exactly with the size (hinting): check, and step down until it fits.
  for (let i = 0; i < 20 && fitted > 8; i++) {
    const widths = await Promise.all(lines.map((l) => inkWidth(l, fitted, weight)));
    if (Math.max(...widths) <= maxWidth) break;
    fitted = Math.floor(fitted * 0.97);
  }
  return fitted;
}

/** Where a line may be split in two: after a space or a hyphen, or between letters of an unspaced script. */
function breakPoints(text: string): Array<[string, string]> {
  const splits: Array<[string, string]> = [];
  for (let i = 1; i < text.length; i++) {
    const before = text[i - 1]!;
    const at = text[i]!;
    if (before === ' ') splits.push([text.slice(0, i - 1), text.slice(i)]);
    else if (before === '-' && at !== ' ') splits.push([text.slice(0, i), text.slice(i)]);
    else if (UNSPACED.test(before) && UNSPACED.test(at)) splits.push([text.slice(0, i), text.slice(i)]);
  }
  return splits.filter(([a, b]) => a.trim() && b.trim());
}

/** A word longer than this may be broken inside, with a hyphen, when no space or hyphen gives room enough. */
const LONG_WORD = 16;
/** The hyphen drawn where a long word is broken (U+2010, so it is told apart from a name's own hyphen). */
export const WORD_BREAK = '\u2010';

/** Where a line's longest word may be split with a drawn hyphen: at least 6 letters each side. */
function wordBreakPoints(text: string): Array<[string, string]> {
  const words = text.split(/[\s-]+/);
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
  if (longest.length <= LONG_WORD) return [];
  const at = text.indexOf(longest);
  const splits: Array<[string, string]> = [];
  for (let k = 6; k <= longest.length - 6; k++) splits.push([text.slice(0, at + k) + WORD_BREAK, text.slice(at + k)]);
  return splits;
}

interface Block {
  text: string;
  /** The size it is drawn at when it fits; it shrinks from here. */
  size: number;
  weight?: number;
  color?: string;
  /** Two: below `wrapBelow` of its size the text is split into two lines instead of shrinking further. */
  maxLines?: 1 | 2;
  /** Space above this block, as a share of its size. */
  gapBefore?: number;
}

export interface CardLine {
  text: string;
  size: number;
  weight: number;
  color: string;
  /** The baseline, in px from the card's top. */
  y: number;
}

/**
 * A block's lines and size: one line when it fits at 70% of its size or more, else the split in two
 * that draws it largest (at a space or hyphen; inside a very long word only when that still leaves
 * it under 35% of its size: a rare word of 30 letters and more).
 */
async function fitBlock(block: Block, maxWidth: number): Promise<{ lines: string[]; size: number }> {
  const weight = block.weight ?? 400;
  const single = await fittedSize([block.text], block.size, maxWidth, weight);
  if ((block.maxLines ?? 1) === 1 || single >= block.size * 0.7) return { lines: [block.text], size: single };
  let best = { lines: [block.text], size: single };
  for (const [a, b] of breakPoints(block.text)) {
    const size = await fittedSize([a, b], block.size, maxWidth, weight);
    if (size > best.size) best = { lines: [a, b], size };
  }
  if (best.size >= block.size * 0.35) return best;
  // One very long word keeps the text small however it is split at spaces: break that word.
  for (const [a, b] of wordBreakPoints(block.text)) {
    const size = await fittedSize([a, b], block.size, maxWidth, weight);
    if (size > best.size) best = { lines: [a, b], size };
  }
  return best;
}

/**
 * The card's text laid out: each block fitted to the width inside the safe area, stacked and
 * centred on that area's middle (shrunk together if the stack would not fit its height).
 */
export async function layoutCard(width: number, height: number, blocks: Block[]): Promise<CardLine[]> {
  const safe = cardSafeArea(width, height);
  // A few pixels to spare: a centred line can land half a pixel either way of where it was measured.
  const maxWidth = Math.floor(width * (1 - 2 * safe.side)) - 4;
  const maxHeight = Math.floor(height * (1 - safe.top - safe.bottom));
  const used = blocks.filter((b) => b.text.trim());
  const fitted = await Promise.all(used.map((b) => fitBlock(b, maxWidth)));
  const stackHeight = (scale: number) =>
    used.reduce((sum, b, i) => sum + (i ? (b.gapBefore ?? 0) * fitted[i]!.size * scale : 0) + fitted[i]!.lines.length * fitted[i]!.size * scale * LINE_HEIGHT, 0);
  const scale = Math.min(1, maxHeight / Math.max(1, stackHeight(1)));
  let top = Math.round(height * safe.top + maxHeight / 2 - stackHeight(scale) / 2);
  const lines: CardLine[] = [];
  used.forEach((b, i) => {
    const size = Math.floor(fitted[i]!.size * scale);
    if (i) top += (b.gapBefore ?? 0) * size;
    for (const text of fitted[i]!.lines) {
      // The baseline sits where DejaVu's ascent ends inside the line's box.
      lines.push({ text, size, weight: b.weight ?? 400, color: b.color ?? '#ffffff', y: Math.round(top + size * (LINE_HEIGHT - 1) / 2 + size * 0.93) });
      top += size * LINE_HEIGHT;
    }
  });
  return lines;
}

async function card(width: number, height: number, blocks: Block[]): Promise<Buffer> {
  const lines = await layoutCard(width, height, blocks);
  const body = lines
    .map((l) => `<text x="50%" y="${l.y}" text-anchor="middle" font-family="${FONT}" font-size="${l.size}" font-weight="${l.weight}" fill="${l.color}">${escape(l.text)}</text>`)
    .join('');
  // The red bar sits above the first line, never inside the top margin.
  const firstTop = lines.length ? lines[0]!.y - lines[0]!.size * 0.93 : height / 2;
  const barY = Math.round(Math.max(height * cardSafeArea(width, height).top, firstTop - (width > height ? 50 : 60)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#111111"/><stop offset="1" stop-color="#000000"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="${width * 0.3}" y="${barY}" width="${width * 0.4}" height="6" fill="#dc2626"/>
${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function introBlocks(text: IntroText, width: number, height: number): Block[] {
  const u = width > height ? 1 : 1.1;
  const team = [text.jerseyNumber !== null && text.jerseyNumber !== '' ? `#${text.jerseyNumber}` : '', text.teamName ?? ''].filter(Boolean).join(' · ');
  return [
    { text: text.name.toUpperCase(), size: Math.round(110 * u), weight: 700, maxLines: 2 },
    { text: team, size: Math.round(56 * u), gapBefore: 0.4 },
    { text: text.event, size: Math.round(38 * u), color: '#d4d4d4', maxLines: 2, gapBefore: 0.6 },
  ];
}

export function introCard(text: IntroText, width: number, height: number): Promise<Buffer> {
  return card(width, height, introBlocks(text, width, height));
}

export function outroCard(width: number, height: number): Promise<Buffer> {
  return card(width, height, [
    { text: BRAND.headline, size: 120, weight: 700, maxLines: 2 },
    { text: BRAND.reelOutro, size: 40, color: '#d4d4d4', maxLines: 2, gapBefore: 0.8 },
  ]);
}

/**
 * Where the spotlight ring goes on a frame: a square of `size` px at (x, y), centred on the face
 * (2.2 times its larger side). Near an edge it shrinks to stay centred, down to what still rings
 * the face; only past that is it moved inward. It always lies wholly inside the frame.
 */
export function ringPlacement(face: { x: number; y: number; w: number; h: number }, frameWidth: number, frameHeight: number): { x: number; y: number; size: number } {
  const side = Math.max(face.w, face.h);
  const cx = face.x + face.w / 2;
  const cy = face.y + face.h / 2;
  const largest = Math.min(frameWidth, frameHeight);
  const wanted = Math.min(largest, Math.max(16, Math.round(side * 2.2)));
  const surround = Math.min(largest, Math.max(16, Math.round(side * 1.3)));
  // The largest square centred on the face that the frame holds.
  const room = Math.floor(2 * Math.min(cx, frameWidth - cx, cy, frameHeight - cy));
  const size = room >= surround ? Math.min(wanted, room) : surround;
  const clamp = (v: number, max: number) => Math.min(Math.max(0, v), max);
  return { x: clamp(Math.round(cx - size / 2), frameWidth - size), y: clamp(Math.round(cy - size / 2), frameHeight - size), size };
}

/** A bright ring with a soft outline, drawn on the athlete's face: transparent PNG of `size` pixels. */
export function spotlightRing(size: number): Promise<Buffer> {
  const s = Math.max(16, Math.round(size));
  const r = s / 2;
  const stroke = Math.max(3, Math.round(s / 22));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}">
<circle cx="${r}" cy="${r}" r="${r - stroke * 1.5}" fill="none" stroke="#000000" stroke-opacity="0.45" stroke-width="${stroke * 2}"/>
<circle cx="${r}" cy="${r}" r="${r - stroke * 1.5}" fill="none" stroke="#facc15" stroke-width="${stroke}"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
