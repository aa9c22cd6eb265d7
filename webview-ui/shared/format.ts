/** Number and time formatting shared by the panels. */
export function fmtNum(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(2);
  return v.toFixed(a >= 1000 ? 0 : digits);
}

export function fmtMeanErr(mean: number, stderr: number): string {
  return `${fmtNum(mean)} ± ${fmtNum(stderr)}`;
}

export function fmtTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function fmtSubmission(n: number): string {
  return `#${n}`;
}

export function shortHash(hash: string): string {
  return hash.replace(/^sha256[:-]/, '').slice(0, 10);
}
