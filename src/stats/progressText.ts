/**
 * A `run.progress` count as one line, as the CLI's bar, the MCP progress notifications, the LM
 * tools and VS Code's progress notification print it: what is running and how far it is.
 */
import type { ProgressNotification } from '../protocol/run';

/** What the batch is: "submission 3", "validation", "assessment of submission 7", "starter baseline", "uniform-random baseline". */
export function progressLabel(p: ProgressNotification): string {
  switch (p.phase) {
    case 'submit':
      return `submission ${p.submission}`;
    case 'validation':
      return 'validation';
    case 'assessment':
      return p.submission === null ? `${p.baseline ?? 'starter'} baseline` : `assessment of submission ${p.submission}`;
  }
}

/**
 * Which batch a count belongs to: a new one starts its own bar, and a surface that adds phases up
 * (MCP's ever-growing progress) adds the one before. Baselines differ by name, not submission.
 */
export function progressBatch(p: ProgressNotification): string {
  return `${p.phase}/${p.submission ?? p.baseline ?? 'starter'}`;
}

/** "validation: 5/13 candidates, 80/208 episodes"; "submission 3: 4/8 episodes". */
export function progressText(p: ProgressNotification): string {
  const candidates = p.phase === 'validation' && p.candidates ? `${p.candidates.done}/${p.candidates.total} candidates, ` : '';
  return `${progressLabel(p)}: ${candidates}${p.done}/${p.total} episodes`;
}

/** What `status.finishing` says the finish is doing, as one line (for `status` and `report` before the end). */
export function finishingText(f: { phase: 'validation' | 'assessment' | 'baseline'; candidatesDone: number; candidatesTotal: number; episodesDone: number; episodesTotal: number; baseline?: string }): string {
  if (f.phase === 'validation') {
    return f.candidatesTotal === 0
      ? 'validating the candidates on the hidden validation cases'
      : `validating the candidates on the hidden validation cases: ${f.candidatesDone}/${f.candidatesTotal} candidates, ${f.episodesDone}/${f.episodesTotal} episodes`;
  }
  const what = f.phase === 'baseline' ? `the ${f.baseline ?? 'starter'} policy (a baseline)` : 'the selected submission';
  return `assessing ${what} on the held-out cases: ${f.episodesDone}/${f.episodesTotal} episodes`;
}
