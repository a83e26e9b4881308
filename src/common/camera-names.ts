// Names of a game's cameras. The review, the sync and the reels tell a game's cameras apart by
// name, so two files of one game cannot share one; the footage form suggests the next free one.

/** Names compare without case or extra spaces: "camera  1" is "Camera 1". */
export const cameraKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** The first "Camera n" that is not among `taken`. */
export function nextCameraName(taken: readonly string[]): string {
  const used = new Set(taken.map(cameraKey));
  let n = 1;
  while (used.has(cameraKey(`Camera ${n}`))) n++;
  return `Camera ${n}`;
}
