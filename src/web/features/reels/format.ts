// How the review screen writes times: minutes, seconds and tenths (0:04.5). On the game's clock
// a camera started before the reference camera has times before 0 (−0:03.2).
export const clock = (s: number) => {
  const a = Math.abs(s);
  // Rounded once, so 59.96 s reads 1:00.0 and not 0:60.0.
  const tenths = Math.round(a * 10);
  const text = `${Math.floor(tenths / 600)}:${((tenths % 600) / 10).toFixed(1).padStart(4, '0')}`;
  return s < 0 && tenths > 0 ? `−${text}` : text;
};
export const span = (startS: number, endS: number) => `${clock(startS)}–${clock(endS)}`;
