/**
 * What the editor marks from a submission's attribution (src/protocol/attribution.ts): the places
 * that ran more often in failed or low-return episodes than in successful ones, per file, with
 * the figures their hover gives. Free of `vscode`, so it is tested as plain data; the
 * decorations themselves are attributionDecorations.ts.
 */
import type { Attribution, AttributionEntry } from '../../protocol/attribution';
import type { SubmissionSummary } from '../../protocol/feedback';
import { attributionFigures, attributionPlace, successfulScoreRule } from '../../stats/attributionText';
import { unchangedLines } from './lineMap';

/** A difference at least this large gets the strong tint. */
export const STRONG_DIFFERENCE = 0.5;

export interface AttributionMark {
  /** 1-based lines, inclusive. */
  line: number;
  endLine: number;
  /** lowRate − highRate, in (0, 1]. */
  difference: number;
  strong: boolean;
  /** Markdown for the hover. */
  hover: string;
}

/** Marks by workspace-relative file (`policy/policy.ts`), in rank order; empty without an attribution. */
export function attributionMarks(summary: Pick<SubmissionSummary, 'submission' | 'attribution'> | undefined): Map<string, AttributionMark[]> {
  const byFile = new Map<string, AttributionMark[]>();
  const a = summary?.attribution;
  if (!summary || !a) return byFile;
  a.entries.forEach((e, rank) => {
    const difference = e.lowRate - e.highRate;
    if (difference <= 0) return;
    const list = byFile.get(e.file) ?? [];
    list.push({ line: e.line, endLine: Math.max(e.line, e.endLine), difference, strong: difference >= STRONG_DIFFERENCE, hover: hoverText(e, a, rank + 1, summary.submission) });
    byFile.set(e.file, list);
  });
  return byFile;
}

function hoverText(e: AttributionEntry, a: Attribution, rank: number, submission: number): string {
  const also = e.alsoAt?.length ? `\n\nRan in the same episodes: ${e.alsoAt.join(', ')}.` : '';
  const successful = successfulScoreRule(a, round);
  return [
    // The rank is the feedback's (places that ran more in successes are ranked there too, unmarked here).
    `**PolicyForge attribution** (submission ${submission}: #${rank} of the ${a.entries.length} places its feedback ranks)`,
    '',
    `**${attributionPlace(e)}** ${attributionFigures(e, a)}.${also}`,
    '',
    `Failed/low: failed, or score ≤ ${round(a.lowScore)}; successful: ok and score ${successful}. Lines as of submission ${submission}.`,
  ].join('\n');
}

function round(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(3);
}

/**
 * The marks moved to where their code is in `now`, the file as edited since the checkpoint
 * (`then`) the attribution describes: a mark whose first line was changed or deleted is dropped,
 * since the code it names is gone; a multi-line mark keeps its length.
 */
export function relocateMarks(marks: readonly AttributionMark[], then: string, now: string, submission: number): AttributionMark[] {
  if (then === now) return [...marks];
  const lines = unchangedLines(then, now);
  const moved: AttributionMark[] = [];
  for (const m of marks) {
    const line = lines.get(m.line);
    if (line === undefined) continue;
    if (line === m.line) {
      moved.push(m);
      continue;
    }
    moved.push({ ...m, line, endLine: line + (m.endLine - m.line), hover: `${m.hover}\n\nLine ${m.line} in submission ${submission}'s checkpoint; the code has moved since.` });
  }
  return moved;
}

