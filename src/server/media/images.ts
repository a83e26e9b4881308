// Uploaded images are judged by their bytes, never by the browser's MIME type, and always
// re-encoded: the stored copy carries no metadata (GPS, camera serials) and is upright.
import sharp from 'sharp';
import type { Context } from 'hono';
import { INVALID_FILE_TYPE, type ToastText } from '../../common/messages';
import { apiError } from '../http/errors';

export class ImageRejected extends Error {
  constructor(readonly reason: 'not_an_image' | 'too_large') {
    super(reason);
  }
}

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif', 'avif', 'tiff']);
/** About 50 megapixels: a phone photo fits, a decompression bomb does not. */
const MAX_INPUT_PIXELS = 50_000_000;

export interface EncodedImage {
  data: Buffer;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

export async function reencodeImage(
  input: Buffer,
  opts: { maxBytes: number; maxDimension: number },
): Promise<EncodedImage> {
  if (input.byteLength > opts.maxBytes) throw new ImageRejected('too_large');
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw new ImageRejected('not_an_image');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new ImageRejected('not_an_image');
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: opts.maxDimension, height: opts.maxDimension, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data, contentType: 'image/jpeg', width: info.width, height: info.height };
  } catch {
    throw new ImageRejected('not_an_image');
  }
}

/** Answers an ImageRejected with the spec's texts; rethrows anything else. */
export function imageRejection(c: Context, error: unknown, tooLarge: ToastText) {
  if (!(error instanceof ImageRejected)) throw error;
  return error.reason === 'too_large'
    ? apiError(c, 413, 'FILE_TOO_LARGE', tooLarge.description, tooLarge.title)
    : apiError(c, 400, 'INVALID_FILE_TYPE', INVALID_FILE_TYPE.description, INVALID_FILE_TYPE.title);
}
