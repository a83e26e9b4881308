// Scales a photo down in the browser so a large phone or camera picture can still be sent: drawn
// on a canvas at most `maxSidePx` on its longest side and encoded as JPEG. The server re-encodes
// it again, so this only has to make it small enough to upload.

export class ImageUnreadable extends Error {}

export async function shrinkImage(file: File, opts: { maxSidePx: number; jpegQuality: number }): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    // Honours the photo's EXIF orientation, so the result is upright.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new ImageUnreadable(file.name);
  }
  try {
    const scale = Math.min(1, opts.maxSidePx / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new ImageUnreadable(file.name);
    // JPEG has no transparency: a see-through PNG gets the white background the server would give it.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', opts.jpegQuality));
    if (!blob) throw new ImageUnreadable(file.name);
    const name = `${file.name.replace(/\.[^.]*$/, '') || 'photo'}.jpg`;
    return new File([blob], name, { type: 'image/jpeg', lastModified: Date.now() });
  } finally {
    bitmap.close();
  }
}
