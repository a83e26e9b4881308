import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readNumberByNet } from './number-net';
import { NET_SURE } from './stretch';

/**
 * A far player's back as a wide camera shows it: drawn four times larger, then shrunk to a region
 * of `width` × `height` pixels (so the digits are blurred as a lens and a shrink blur them), with
 * grass at its sides.
 */
async function back(options: { shirt: string; ink?: string; text?: string; width: number; height: number; stripes?: string }) {
  const W = options.width * 4;
  const H = options.height * 4;
  const stripes = options.stripes ? Array.from({ length: 6 }, (_, i) => `<rect x="${i * W / 6}" width="${W / 12}" height="${H}" fill="${options.stripes}"/>`).join('') : '';
  const text = options.text ? `<text x="${W / 2}" y="${H * 0.78}" font-family="DejaVu Sans" font-weight="bold" font-size="${H * 0.5}" fill="${options.ink}" text-anchor="middle">${options.text}</text>` : '';
  // The shirt from the shoulders down, the head above the collar, as the region falls on a player's box.
  const body = `<path d="M ${W * 0.3} ${H * 0.12} L ${W * 0.7} ${H * 0.12} L ${W * 0.92} ${H * 0.3} L ${W * 0.92} ${H} L ${W * 0.08} ${H} L ${W * 0.08} ${H * 0.3} Z" fill="${options.shirt}"/>`;
  const head = `<ellipse cx="${W / 2}" cy="${H * 0.08}" rx="${W * 0.14}" ry="${H * 0.1}" fill="#3b2a20"/>`;
  const svg = `<svg width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#4f8a2e"/>${body}${head}${stripes}${text}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).resize(options.width, options.height).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { frame: { data: new Uint8Array(data), width: info.width, height: info.height }, region: { x: 0, y: 0, w: info.width, h: info.height } };
}

describe('the number net', () => {
  it('reads a far player’s two-digit number, 16 px tall, as its likeliest answer (sureness comes from agreeing reads along the track)', async () => {
    const { frame, region } = await back({ shirt: '#c8102e', ink: '#ffffff', text: '23', width: 30, height: 40 });
    const reading = readNumberByNet(frame, region);
    expect(reading.number).toBe(23);
    expect(reading.probability).toBeGreaterThan(0.5);
  });
  it('reads a dark one-digit number on a white shirt', async () => {
    const { frame, region } = await back({ shirt: '#f4f4f4', ink: '#1d2a5c', text: '7', width: 24, height: 32 });
    const reading = readNumberByNet(frame, region);
    expect(reading.number).toBe(7);
    expect(reading.probability).toBeGreaterThanOrEqual(NET_SURE);
  });
  it('reads no number on a plain shirt or a striped one', async () => {
    for (const options of [{ shirt: '#c8102e' }, { shirt: '#ffffff', stripes: '#1b5fb5' }]) {
      const { frame, region } = await back({ ...options, width: 26, height: 32 });
      const reading = readNumberByNet(frame, region);
      expect(reading.number === null || reading.probability < NET_SURE).toBe(true);
    }
  });
});
