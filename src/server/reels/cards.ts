// The still pictures a reel is made with: the intro card (athlete, team, jersey number, event),
// the outro card (the brand) and the spotlight ring. Drawn as SVG and rasterised by sharp, so no
// font or image has to be downloaded; the text uses the system's sans-serif font (DejaVu from
// Debian's fonts-dejavu-core, which the CI installs).
import sharp from 'sharp';
import { BRAND } from '../../common/messages';

export interface IntroText {
  name: string;
  teamName: string | null;
  jerseyNumber: number | string | null;
  event: string;
}

const escape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Long names shrink rather than run off the card. */
const fit = (text: string, width: number, size: number) => Math.max(18, Math.min(size, Math.floor((width * 1.8) / Math.max(1, text.length))));

function card(width: number, height: number, lines: Array<{ text: string; size: number; weight?: number; color?: string; dy: number }>): Promise<Buffer> {
  const body = lines
    .filter((l) => l.text)
    .map(
      (l) =>
        `<text x="50%" y="${Math.round(height / 2 + l.dy)}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="${fit(l.text, width * 0.85, l.size)}" font-weight="${l.weight ?? 400}" fill="${l.color ?? '#ffffff'}">${escape(l.text)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#111111"/><stop offset="1" stop-color="#000000"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="${width * 0.3}" y="${height / 2 - (width > height ? 150 : 260)}" width="${width * 0.4}" height="6" fill="#dc2626"/>
${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export function introCard(text: IntroText, width: number, height: number): Promise<Buffer> {
  const u = width > height ? 1 : 1.1;
  const team = [text.jerseyNumber !== null && text.jerseyNumber !== '' ? `#${text.jerseyNumber}` : '', text.teamName ?? ''].filter(Boolean).join(' · ');
  return card(width, height, [
    { text: text.name.toUpperCase(), size: 110 * u, weight: 700, dy: -10 },
    { text: team, size: 56 * u, dy: 80 * u },
    { text: text.event, size: 38 * u, color: '#d4d4d4', dy: 160 * u },
  ]);
}

export function outroCard(width: number, height: number): Promise<Buffer> {
  return card(width, height, [
    { text: BRAND.headline, size: 120, weight: 700, dy: 20 },
    { text: BRAND.reelOutro, size: 40, color: '#d4d4d4', dy: 110 },
  ]);
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
