// Reads just enough of a JPEG's EXIF block (as sharp's metadata().exif returns it) to tell
// whether it carries a GPS directory, and which GPS tags are in it.

/** The tag numbers found in the GPS IFD of an EXIF buffer; empty when there is no GPS IFD. */
export function gpsTagsIn(exif: Buffer | undefined): number[] {
  if (!exif || exif.length < 14) return [];
  // sharp hands the APP1 payload: "Exif\0\0" then the TIFF header.
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const tiff = exif.subarray(start);
  const order = tiff.subarray(0, 2).toString('latin1');
  if (order !== 'II' && order !== 'MM') return [];
  const le = order === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const entries = (ifd: number) => {
    const out: Array<{ tag: number; value: number }> = [];
    if (ifd + 2 > tiff.length) return out;
    const n = u16(ifd);
    for (let i = 0; i < n; i++) {
      const e = ifd + 2 + i * 12;
      if (e + 12 > tiff.length) break;
      out.push({ tag: u16(e), value: u32(e + 8) });
    }
    return out;
  };
  const gpsPointer = entries(u32(4)).find((e) => e.tag === 0x8825);
  if (!gpsPointer) return [];
  return entries(gpsPointer.value).map((e) => e.tag);
}

/** EXIF GPS tag numbers. */
export const GPS_TAGS = { latitudeRef: 0x0001, latitude: 0x0002, longitudeRef: 0x0003, longitude: 0x0004 } as const;
