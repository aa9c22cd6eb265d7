/** The answers to `run.info`, `run.status` and `run.feedback`, read from the run's config, state and files. */
import { PROTOCOL_VERSION, type ProgressNotification, type RunInfo, type RunStatus } from '../protocol/run';
import { bestTrainSubmission, comparableEpisodes } from '../stats/bestTrain';
import type { SubmissionSummary } from '../protocol/feedback';
import type { RunConfig } from './config';
import { practiceStatus } from './practice';
import { submissionName, type WorkspacePaths } from './paths';
import { RunError } from './runError';
import type { RunContext } from './runContext';
import type { RunState } from './runState';
import type { RunningSubmission } from './submission';

export function runInfo(c: RunConfig, paths: WorkspacePaths, runnerVersion = '0'): RunInfo {
  return {
    protocolVersion: PROTOCOL_VERSION,
    runId: c.runId,
    envId: c.envId,
    params: { ...c.params },
    budget: c.budget,
    poolSize: c.poolSize,
    minEpisodesPerSubmit: c.minEpisodesPerSubmit,
    maxEpisodesPerSubmit: c.maxEpisodesPerSubmit,
    maxSubmissions: c.maxSubmissions,
    validationCases: c.validationCases,
    heldOutCases: c.heldOutCases,
    selectionMode: c.selectionMode,
    ...(c.gateDelta !== undefined ? { gateDelta: c.gateDelta } : {}),
    workspace: paths.root,
    runnerVersion,
  };
}

export function runStatus(c: RunConfig, s: RunState, running: RunningSubmission | null, recovery: readonly string[], finishing: ProgressNotification | null = null): RunStatus {
  const history = [...s.submissions.values()].sort((a, b) => a.submission - b.submission);
  const bestMinEpisodes = comparableEpisodes(c);
  const top = bestTrainSubmission(history, bestMinEpisodes);
  let nextUnusedCase: number | null = null;
  for (let i = 0; i < c.poolSize && nextUnusedCase === null; i++) if (!s.usedCases.has(i)) nextUnusedCase = i;
  return {
    phase: s.phase,
    budget: { total: c.budget, used: s.used, remaining: c.budget - s.used },
    submissions: s.submissions.size,
    maxSubmissions: c.maxSubmissions,
    nextUnusedCase,
    running: running ? { submission: running.submission, done: running.done, total: running.total } : null,
    best: top ? { submission: top.submission, mean: top.mean } : null,
    bestMinEpisodes,
    finishing: s.phase === 'validating' || s.phase === 'assessing' ? finishingOf(finishing) : null,
    history,
    restoredFrom: s.restoredFrom,
    recovery: [...recovery],
    practice: practiceStatus(c, s),
  };
}

/** What the finish is doing, from its latest progress (before the first count: validation, nothing done). */
function finishingOf(p: ProgressNotification | null): NonNullable<RunStatus['finishing']> {
  if (!p || p.phase === 'submit') return { phase: 'validation', candidatesDone: 0, candidatesTotal: 0, episodesDone: 0, episodesTotal: 0 };
  const phase = p.phase === 'assessment' && p.submission === null ? 'baseline' : p.phase;
  return { phase, candidatesDone: p.candidates?.done ?? 0, candidatesTotal: p.candidates?.total ?? 0, episodesDone: p.done, episodesTotal: p.total, ...(phase === 'baseline' ? { baseline: p.baseline ?? 'starter' } : {}) };
}

/** A submission's summary (the latest by default). */
export function runFeedback(ctx: RunContext, submission?: number): SubmissionSummary {
  const n = submission ?? Math.max(0, ...ctx.state.submissions.keys(), ...ctx.state.practice.keys());
  if (n === 0) throw new RunError('unknownSubmission', 'no submission yet: run `policyforge submit` first');
  if (!ctx.state.submissions.has(n) && !ctx.state.practice.has(n)) throw new RunError('unknownSubmission', `submission ${n} does not exist (there are ${ctx.state.submissions.size})`, { submission: n });
  const summary = ctx.feedback.read(n);
  if (!summary) throw new RunError('internal', `feedback/${submissionName(n)}/summary.json is missing or unreadable`);
  return summary;
}
