// An event's dates as families read them, written from its first and last day: "Mar 7-8, 2026",
// "Mar 30 - Apr 2, 2026", "Dec 30, 2026 - Jan 2, 2027", or one day, "Nov 9, 2026".
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function eventDatesText(startsOn: string, endsOn?: string | null): string {
  const [y1, m1, d1] = startsOn.split('-').map(Number) as [number, number, number];
  if (!endsOn || endsOn <= startsOn) return `${MONTHS[m1 - 1]} ${d1}, ${y1}`;
  const [y2, m2, d2] = endsOn.split('-').map(Number) as [number, number, number];
  if (y1 !== y2) return `${MONTHS[m1 - 1]} ${d1}, ${y1} - ${MONTHS[m2 - 1]} ${d2}, ${y2}`;
  if (m1 !== m2) return `${MONTHS[m1 - 1]} ${d1} - ${MONTHS[m2 - 1]} ${d2}, ${y1}`;
  return `${MONTHS[m1 - 1]} ${d1}-${d2}, ${y1}`;
}
