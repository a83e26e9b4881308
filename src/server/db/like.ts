// A LIKE pattern that finds the typed text anywhere, lower-cased, its % _ and \ taken as
// themselves (used with ESCAPE '\').
export function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
