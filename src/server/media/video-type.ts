// What kind of video a file is, judged by its first bytes (never by its name or the browser's
// word): MP4 and MOV start with an ISO-BMFF `ftyp` box, WebM with an EBML header.
export type VideoContainer = 'mp4' | 'mov' | 'webm';

/** Atoms an older QuickTime file may start with instead of `ftyp`. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** Give it the first 64 bytes of the file. */
export function sniffVideoContainer(head: Buffer): VideoContainer | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    return brand === 'qt  ' ? 'mov' : 'mp4';
  }
  if (head.length >= 8 && QUICKTIME_ATOMS.has(head.toString('latin1', 4, 8))) return 'mov';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
    // EBML: WebM (Matroska with the webm doc type); plain Matroska is not accepted.
    return head.includes(Buffer.from('webm')) ? 'webm' : null;
  }
  return null;
}
