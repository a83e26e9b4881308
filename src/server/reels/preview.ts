// The family's preview of a rendered reel, shown before they pay (issue 22): the first seconds of
// the highlight reel after the intro card, small, with "PREVIEW" drawn across the picture, so it
// shows the athlete was found without giving the reel away. Made from the reel the render job
// has just written; the render's id names the file, so a job run twice writes one preview.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { REEL_FORMAT } from '../../common/reel-format';
import { runFfmpeg, videoInput } from '../media/ffmpeg';

export const PREVIEW_FORMAT = { width: 640, height: 360, seconds: 10 } as const;

/** The watermark: one large diagonal word and a band of small ones, half transparent. */
export async function previewWatermark(width: number, height: number): Promise<Buffer> {
  const small = Array.from({ length: 4 }, (_, i) => `<text x="${(i + 0.5) * (width / 4)}" y="${height - 14}" text-anchor="middle" font-size="16" font-weight="700">PREVIEW</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<g font-family="DejaVu Sans, sans-serif" fill="#ffffff" fill-opacity="0.42" stroke="#000000" stroke-opacity="0.35" stroke-width="1.5">
<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-size="${Math.round(height * 0.3)}" font-weight="700" transform="rotate(-18 ${width / 2} ${height / 2})">PREVIEW</text>
${small}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Writes `output`: PREVIEW_FORMAT.seconds of `reel` from the end of its intro card (less when the
 * reel is shorter), scaled to 640x360 with the watermark burnt in, H.264/AAC with its index first.
 */
export async function renderPreview(opts: { reel: string; reelDurationS: number; hasAudio: boolean; work: string; output: string }): Promise<void> {
  const { width, height, seconds } = PREVIEW_FORMAT;
  const startS = Math.min(REEL_FORMAT.reel.introS, Math.max(0, opts.reelDurationS - 1));
  const durationS = Math.max(0.5, Math.min(seconds, opts.reelDurationS - startS));
  const watermark = path.join(opts.work, 'preview-watermark.png');
  await fs.writeFile(watermark, await previewWatermark(width, height));
  await runFfmpeg(
    [
      '-y', '-v', 'error', '-progress', 'pipe:1',
      '-ss', String(startS), '-t', String(durationS), ...(await videoInput(opts.reel)),
      '-i', watermark,
      '-filter_complex', `[0:v]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1[v];[v][1:v]overlay=0:0:format=auto,format=yuv420p[out]`,
      '-map', '[out]', ...(opts.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k'] : ['-an']),
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28',
      '-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', opts.output,
    ],
    durationS,
  );
}
