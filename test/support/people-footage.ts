// Camera files of real people for the person path (issue 35): the first calibration group photo
// (../shared/faces-calibration, four seated people), with a white 23 printed on the right man's
// own grey-green T-shirt, his face blurred past finding when a test wants a player who never
// shows it.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp, { type OverlayOptions } from 'sharp';

const run = promisify(execFile);
export const CALIBRATION = path.resolve(import.meta.dirname, '../../../shared/faces-calibration');

/** Where the 23 is printed, at 1280 × 720. */
export const NUMBER_AT = { x: 920, y: 285, w: 150, h: 100 };
/** His face there. */
const HIS_FACE = { left: 905, top: 20, width: 160, height: 200 };
/** His shirt's colour where the light is even: the kit a roster gives his team. */
export const HIS_KIT = '#667f6b';

/**
 * 4 s at 1280 × 720, 25 fps, a keyframe every 12 frames; `hideFace` blurs his face past finding;
 * `shiftColours` turns every colour of the picture half-way round and strengthens it, whites
 * staying white, as a camera with another colour balance would (his kit is then no longer his
 * team's colour).
 */
export async function numberedPlayerVideo(folder: string, name: string, hideFace: boolean, shiftColours = false): Promise<string> {
  let source = sharp(path.join(CALIBRATION, 'bbt1.jpg')).resize(1280, 720, { fit: 'cover' }).removeAlpha();
  if (shiftColours) source = source.modulate({ hue: 180, saturation: 3 });
  const picture = await source.png().toBuffer();
  const svg = `<svg width="1280" height="720"><text x="${NUMBER_AT.x + NUMBER_AT.w / 2}" y="${NUMBER_AT.y + NUMBER_AT.h * 0.85}" font-family="DejaVu Sans" font-weight="bold" font-size="${NUMBER_AT.h}" fill="#ffffff" text-anchor="middle">23</text></svg>`;
  const layers: OverlayOptions[] = [{ input: Buffer.from(svg) }];
  if (hideFace) layers.unshift({ input: await sharp(picture).extract(HIS_FACE).blur(30).toBuffer(), left: HIS_FACE.left, top: HIS_FACE.top });
  const still = path.join(folder, `${name}.png`);
  await sharp(picture).composite(layers).png().toFile(still);
  const file = path.join(folder, name);
  await run('ffmpeg', ['-v', 'error', '-y', '-loop', '1', '-t', '4', '-i', still, '-vf', 'fps=25', '-c:v', 'libx264', '-g', '12', '-pix_fmt', 'yuv420p', file]);
  return file;
}
