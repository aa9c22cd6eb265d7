/**
 * Which of the policy's functions and branches ran in a submission's failed or low-return
 * episodes as against its successful ones (the contract is in src/protocol/attribution.ts).
 *
 * Groups: an episode is *low* when it failed (any status but ok) or scored at or below the first
 * quartile of the scores; *high* when it ended ok and scored at least the median and above the
 * first quartile. The quartiles are over every episode with coverage; failed episodes score
 * their failure return. A place is ranked by |share of low episodes it ran in − share of high
 * episodes it ran in|. Places that ran in exactly the same episodes are one entry (the most
 * specific place leads, the others are listed), so one bad branch does not fill the list with
 * the helpers only it calls.
 */
import type { Attribution, AttributionEntry, CoverageProbe, ProbeKind } from '../protocol/attribution';
import type { EpisodeStatus } from '../protocol/episodes';

/** Entries kept in summary.json. */
export const ATTRIBUTION_ENTRIES = 8;
/** Smallest |lowRate − highRate| worth reporting. */
export const MIN_RATE_DIFFERENCE = 0.2;

export interface CoveredEpisode {
  status: EpisodeStatus;
  /** The score every mean uses (the failure return for a failed episode). */
  score: number;
  /** Probe ids that ran; undefined when the episode has no coverage (killed, runner fault). */
  coverage?: readonly number[];
}

/** The attribution of one submission, or undefined when its episodes do not split into two groups. */
export function attributeEpisodes(probes: readonly CoverageProbe[], episodes: readonly CoveredEpisode[], keep = ATTRIBUTION_ENTRIES): Attribution | undefined {
  const covered = episodes.filter((e): e is CoveredEpisode & { coverage: readonly number[] } => e.coverage !== undefined && e.status !== 'runner_fault');
  if (probes.length === 0 || covered.length < 2) return undefined;
  const sorted = covered.map((e) => e.score).sort((a, b) => a - b);
  const lowScore = quantile(sorted, 0.25);
  const highScore = quantile(sorted, 0.5);
  const low = covered.filter((e) => e.status !== 'ok' || e.score <= lowScore);
  const high = covered.filter((e) => e.status === 'ok' && e.score >= highScore && e.score > lowScore);
  if (low.length === 0 || high.length === 0) return undefined;

  const lowCounts = counts(probes.length, low);
  const highCounts = counts(probes.length, high);
  // One entry per distinct pattern of episodes a place ran in.
  const patterns = new Map<string, CoverageProbe[]>();
  const ran = probes.map(() => [] as number[]);
  [...low, ...high].forEach((e, i) => {
    for (const id of e.coverage) ran[id]?.push(i);
  });
  for (const p of probes) {
    const key = ran[p.id]!.join(',');
    const list = patterns.get(key);
    if (list) list.push(p);
    else patterns.set(key, [p]);
  }
  const entries: (AttributionEntry & { diff: number })[] = [];
  for (const group of patterns.values()) {
    const lead = [...group].sort(bySpecificity)[0]!;
    const lowRate = lowCounts[lead.id]! / low.length;
    const highRate = highCounts[lead.id]! / high.length;
    const diff = lowRate - highRate;
    if (Math.abs(diff) < MIN_RATE_DIFFERENCE) continue;
    const entry: AttributionEntry & { diff: number } = { kind: lead.kind, file: lead.file, line: lead.line, column: lead.column, endLine: lead.endLine, lowRate, highRate, diff };
    if (lead.function !== undefined) entry.function = lead.function;
    const also = [...new Set(group.filter((p) => p !== lead).map((p) => `${p.file}:${p.line}`))].filter((at) => at !== `${lead.file}:${lead.line}`).slice(0, 3);
    if (also.length > 0) entry.alsoAt = also;
    entries.push(entry);
  }
  entries.sort((a, b) => Math.abs(b.diff) - Math.abs(a.diff) || b.diff - a.diff || a.file.localeCompare(b.file) || a.line - b.line);
  return {
    low: low.length,
    high: high.length,
    lowScore,
    highScore,
    probes: probes.length,
    entries: entries.slice(0, keep).map(({ diff: _d, ...e }) => e),
  };
}

/** Linear interpolation between order statistics (numpy's default), on sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  return a + (b - a) * (pos - lo);
}

function counts(n: number, episodes: readonly { coverage: readonly number[] }[]): number[] {
  const c = new Array<number>(n).fill(0);
  for (const e of episodes) for (const id of e.coverage) if (id < n) c[id]!++;
  return c;
}

/** Branches say more than the function they are in; among equals, the innermost (latest) place. */
const KIND_RANK: Record<ProbeKind, number> = { else: 0, then: 0, case: 0, 'ternary-then': 0, 'ternary-else': 0, catch: 0, 'right-operand': 1, loop: 2, function: 3 };

function bySpecificity(a: CoverageProbe, b: CoverageProbe): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || a.endLine - a.line - (b.endLine - b.line) || b.line - a.line || b.column - a.column;
}
