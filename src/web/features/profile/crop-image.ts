// Renders the chosen circle crop to a square JPEG of the spec's size and quality.
import { AVATAR_JPEG_QUALITY, AVATAR_SIZE_PX } from '../../../common/constants';

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('Could not read the image.'));
    img.src = src;
  });
}

export async function cropToJpeg(src: string, area: PixelArea): Promise<Blob> {
  const img = await loadImage(src);
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIZE_PX;
  canvas.height = AVATAR_SIZE_PX;
  const ctx = canvas.getContext('2d')!;
  // Zoomed out below 1x the crop can reach past the photo: fill that part rather than leave it black.
  ctx.fillStyle = '#171717';
  ctx.fillRect(0, 0, AVATAR_SIZE_PX, AVATAR_SIZE_PX);
  const scale = AVATAR_SIZE_PX / area.width;
  ctx.drawImage(img, -area.x * scale, -area.y * scale, img.naturalWidth * scale, img.naturalHeight * scale);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('Could not encode the image.'))), 'image/jpeg', AVATAR_JPEG_QUALITY),
  );
}
