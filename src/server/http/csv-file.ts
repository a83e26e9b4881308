// A CSV file for a spreadsheet: every cell quoted when it must be, and a cell that a spreadsheet
// would run as a formula (=, +, -, @) kept as text with a leading quote.
export function csvText(lines: readonly (readonly string[])[]): string {
  const cell = (v: string) => {
    const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}
