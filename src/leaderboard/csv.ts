/** Result rows as CSV (`environment,entry,score,kind`, optional `family`), both ways. RFC 4180 quoting. */
import type { EntryKind, ScoreRow } from './types';

export const ROW_COLUMNS = ['environment', 'entry', 'score', 'kind'] as const;

/** Splits CSV text into records of fields: quoted fields may hold commas, quotes ("") and newlines. */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  record.push(field);
  if (record.length > 1 || record[0] !== '') records.push(record);
  return records;
}

export function csvField(value: string | number | null): string {
  const s = value === null ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

/** Parses result rows; errors name the line. An empty score means the run produced none. */
export function parseScoreRows(text: string, source = 'CSV'): ScoreRow[] {
  const [header, ...records] = parseCsvRecords(text);
  if (!header) throw new Error(`${source}: empty file`);
  const names = header.map((h) => h.trim().toLowerCase());
  const col = (name: string): number => names.indexOf(name);
  const missing = ROW_COLUMNS.filter((c) => col(c) < 0);
  if (missing.length) throw new Error(`${source}: missing column(s) ${missing.join(', ')} (the header must name environment,entry,score,kind)`);
  const family = col('family');
  return records.map((r, i) => {
    const line = i + 2;
    const get = (name: string): string => (r[col(name)] ?? '').trim();
    const kind = get('kind');
    if (kind !== 'agent' && kind !== 'baseline') throw new Error(`${source}:${line}: kind must be agent or baseline, got "${kind}"`);
    const rawScore = get('score');
    const score = rawScore === '' || rawScore.toLowerCase() === 'nan' ? null : Number(rawScore);
    if (score !== null && !Number.isFinite(score)) throw new Error(`${source}:${line}: score is not a number: "${rawScore}"`);
    if (!get('environment') || !get('entry')) throw new Error(`${source}:${line}: environment and entry must not be empty`);
    const fam = family >= 0 ? (r[family] ?? '').trim() : '';
    return { environment: get('environment'), entry: get('entry'), score, kind: kind as EntryKind, ...(fam ? { family: fam } : {}) };
  });
}

export function scoreRowsToCsv(rows: readonly ScoreRow[]): string {
  return toCsv([...ROW_COLUMNS, 'family'], rows.map((r) => [r.environment, r.entry, r.score, r.kind, r.family ?? null]));
}
