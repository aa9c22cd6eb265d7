/**
 * Time, hash and percentage formatting shared by the panels. Returns print through the run's
 * format in src/stats/scoreFormat.ts, as in every other view.
 */
export function fmtTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function shortHash(hash: string): string {
  return hash.replace(/^sha256[:-]/, '').slice(0, 10);
}

/** 0.125 → "12.5%"; "—" when there is no fraction. */
export function fmtPercent(fraction: number | null | undefined): string {
  return fraction === null || fraction === undefined || !Number.isFinite(fraction) ? '—' : `${(100 * fraction).toFixed(1)}%`;
}
