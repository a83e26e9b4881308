// A roster file as admins keep them (issue 35, item 1): one athlete a line, with a header naming
// the columns (team, number, name; optionally the kit's colours). Every line is checked, and each
// bad one is reported with its line number and what is wrong; the file is taken whole or not at all.
import { ROSTER } from '../../common/admin-messages';
import { hasControlCharacters } from '../../common/schemas';

export const ROSTER_MAX_BYTES = 256 * 1024;
export const ROSTER_MAX_ROWS = 3000;

export interface RosterRow {
  line: number;
  team: string;
  number: number;
  name: string;
  kitColor: string | null;
  numberColor: string | null;
  awayKitColor: string | null;
  awayNumberColor: string | null;
}
export interface BadRow {
  line: number;
  message: string;
}

/** The header's names for each column, as spreadsheets write them. */
const COLUMNS: Record<keyof Omit<RosterRow, 'line'>, string[]> = {
  team: ['team', 'team name'],
  number: ['number', 'jersey', 'jersey number', '#', 'no', 'no.'],
  name: ['name', 'athlete', 'athlete name', 'player', 'player name'],
  kitColor: ['kit color', 'kit colour', 'kit', 'shirt color', 'shirt colour'],
  numberColor: ['number color', 'number colour'],
  awayKitColor: ['away kit color', 'away kit colour', 'away kit'],
  awayNumberColor: ['away number color', 'away number colour'],
};
const COLOUR = /^#[0-9a-f]{6}$/i;

/** The fields of one CSV line: commas, and double quotes around fields that hold them. */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (ch === ',' || ch === ';' || ch === '\t') {
      fields.push(field.trim());
      field = '';
    } else field += ch;
  }
  fields.push(field.trim());
  return fields;
}

export type ParsedRoster = { ok: true; rows: RosterRow[] } | { ok: false; problem: string; bad: BadRow[] };

export function parseRoster(text: string): ParsedRoster {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) return { ok: false, problem: ROSTER.empty, bad: [] };
  const header = csvFields(lines[headerAt]!).map((h) => h.toLowerCase().replace(/\s+/g, ' '));
  const at = {} as Record<keyof typeof COLUMNS, number>;
  for (const [key, names] of Object.entries(COLUMNS) as Array<[keyof typeof COLUMNS, string[]]>) at[key] = header.findIndex((h) => names.includes(h));
  if (at.team < 0 || at.number < 0 || at.name < 0) return { ok: false, problem: ROSTER.header, bad: [] };

  const rows: RosterRow[] = [];
  const bad: BadRow[] = [];
  const seen = new Map<string, number>();
  for (let i = headerAt + 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const line = i + 1;
    if (rows.length + bad.length >= ROSTER_MAX_ROWS) return { ok: false, problem: ROSTER.tooManyRows(ROSTER_MAX_ROWS), bad: [] };
    const f = csvFields(raw);
    const cell = (key: keyof typeof COLUMNS) => (at[key] >= 0 ? (f[at[key]] ?? '') : '');
    const team = cell('team');
    const numberText = cell('number').replace(/^#/, '');
    const name = cell('name');
    const problem = (() => {
      if (!team) return ROSTER.bad.team;
      if (team.length > 80 || hasControlCharacters(team)) return ROSTER.bad.teamText;
      if (!/^\d{1,4}$/.test(numberText)) return ROSTER.bad.number(cell('number'));
      if (!name) return ROSTER.bad.name;
      if (name.length > 120 || hasControlCharacters(name)) return ROSTER.bad.nameText;
      for (const key of ['kitColor', 'numberColor', 'awayKitColor', 'awayNumberColor'] as const) {
        const v = cell(key);
        if (v && !COLOUR.test(v)) return ROSTER.bad.colour(v);
      }
      const key = `${team.toLowerCase()}#${Number(numberText)}`;
      const before = seen.get(key);
      if (before) return ROSTER.bad.duplicate(Number(numberText), team, before);
      seen.set(key, line);
      return null;
    })();
    if (problem) {
      bad.push({ line, message: problem });
      continue;
    }
    const colour = (key: keyof typeof COLUMNS) => cell(key).toLowerCase() || null;
    rows.push({
      line,
      team,
      number: Number(numberText),
      name,
      kitColor: colour('kitColor'),
      numberColor: colour('numberColor'),
      awayKitColor: colour('awayKitColor'),
      awayNumberColor: colour('awayNumberColor'),
    });
  }
  if (bad.length) return { ok: false, problem: ROSTER.badRows(bad.length), bad };
  if (!rows.length) return { ok: false, problem: ROSTER.empty, bad: [] };
  return { ok: true, rows };
}
