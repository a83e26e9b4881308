// How the review screen writes times: minutes, seconds and tenths (0:04.5).
export const clock = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
export const span = (startS: number, endS: number) => `${clock(startS)}–${clock(endS)}`;
