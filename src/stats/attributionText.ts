/** A submission's attribution (src/protocol/attribution.ts) as feedback text: a short ranked list. */
import type { Attribution, AttributionEntry, ProbeKind } from '../protocol/attribution';
import type { ScoreFormat } from './scoreFormat';

const pct = (x: number): string => `${Math.round(x * 100)}%`;

const KIND_TEXT: Record<ProbeKind, string> = {
  function: 'function body',
  then: 'if branch',
  else: 'else branch',
  case: 'case',
  loop: 'loop body',
  'ternary-then': '?: true side',
  'ternary-else': '?: false side',
  'right-operand': 'right operand of &&/||/??',
  catch: 'catch block',
};

/** "else branch in Policy.act": what the place is, in words. */
export function attributionPlace(e: Pick<AttributionEntry, 'kind' | 'function'>): string {
  const what = KIND_TEXT[e.kind];
  if (e.kind === 'function') return e.function ? `${e.function}()` : 'a function';
  return e.function ? `${what} in ${e.function}` : what;
}

/** "ran in 90% of low-return episodes (9/10) and 10% of successful ones (1/10)". */
export function attributionFigures(e: Pick<AttributionEntry, 'lowRate' | 'highRate'>, a: Pick<Attribution, 'low' | 'high'>): string {
  return `ran in ${pct(e.lowRate)} of failed/low episodes (${Math.round(e.lowRate * a.low)}/${a.low}) and ${pct(e.highRate)} of successful ones (${Math.round(e.highRate * a.high)}/${a.high})`;
}

/**
 * The score rule for successful episodes, e.g. "≥ 0.47". An ok episode is successful above the
 * low cut as well as at the median: when the two meet (many episodes on one score), "≥ median"
 * would wrongly take in episodes the low group holds.
 */
export function successfulScoreRule(a: Pick<Attribution, 'lowScore' | 'highScore'>, score: (x: number) => string): string {
  return a.highScore > a.lowScore ? `≥ ${score(a.highScore)}` : `> ${score(a.lowScore)}`;
}

/** Feedback lines: a header naming the two groups, then each place as `file:line place: figures`. */
export function attributionLines(a: Attribution | undefined, fmt: Pick<ScoreFormat, 'score'>, max = 5): string[] {
  if (!a || a.entries.length === 0) return [];
  const header = `attribution (code that ran unevenly; failed/low = failed or score ≤ ${fmt.score(a.lowScore)}, successful = ok and score ${successfulScoreRule(a, fmt.score)}):`;
  const rows = a.entries.slice(0, max).map((e) => {
    const also = e.alsoAt?.length ? ` (also ${e.alsoAt.join(', ')})` : '';
    return `${e.file}:${e.line} ${attributionPlace(e)}: ${attributionFigures(e, a)}${also}`;
  });
  return [header, ...rows];
}
