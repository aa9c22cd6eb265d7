/**
 * The run's state as a fold over the journal. The journal is the source of truth: the runner
 * rebuilds this on every start, so a crash at any point leaves a state the next start can read.
 */
import type { ReturnStats, SelectionEvidence } from '../protocol/feedback';
import type { RunPhase, SubmissionBrief } from '../protocol/run';
import type { PracticeParams, StampedEvent } from './journal';

export interface PendingSubmit {
  submission: number;
  checkpoint: string;
  parent: number | null;
  cases: number[];
  note?: string;
  practice?: PracticeParams;
}

/** A practice submission: kept apart from `submissions`, so selection, best and paired statistics never see it. */
export interface PracticeBrief {
  submission: number;
  checkpoint: string;
  cases: number[];
  mean: number;
  count: number;
  params: PracticeParams;
}

export interface FinishState {
  mode: 'paper' | 'candidates' | 'gated';
  candidates: number[];
  trigger: 'finish' | 'budget';
}

export interface RunState {
  phase: RunPhase;
  used: number;
  submissions: Map<number, SubmissionBrief>;
  usedCases: Set<number>;
  /** Episodes charged to the practice budget, and the practice submissions. */
  practiceUsed: number;
  practice: Map<number, PracticeBrief>;
  practiceCases: Set<number>;
  /** A submit whose start is journaled but whose outcome is not (a crash mid-submit). */
  pending: PendingSubmit | null;
  restoredFrom: number | null;
  finish: FinishState | null;
  /** Validation stats by checkpoint id (identical checkpoints validate once). */
  validated: Map<string, ReturnStats>;
  /** Scored return per validation case, by checkpoint (journals before gated selection lack them). */
  validatedReturns: Map<string, number[]>;
  /** Elite re-evaluation on fresh validation cases, by checkpoint. */
  revalidated: Map<string, { stats: ReturnStats; returns: number[] }>;
  selected: { submission: number | null; reason?: string; evidence?: SelectionEvidence } | null;
  assessed: ReturnStats | null;
  starter: { stats: ReturnStats | null; error?: string } | null;
  /** Other baselines on the held-out cases, by name. */
  baselines: Map<string, { stats: ReturnStats | null; error?: string }>;
  completed: boolean;
}

export function emptyState(): RunState {
  return {
    phase: 'agent',
    used: 0,
    submissions: new Map(),
    usedCases: new Set(),
    practiceUsed: 0,
    practice: new Map(),
    practiceCases: new Set(),
    pending: null,
    restoredFrom: null,
    finish: null,
    validated: new Map(),
    validatedReturns: new Map(),
    revalidated: new Map(),
    selected: null,
    assessed: null,
    starter: null,
    baselines: new Map(),
    completed: false,
  };
}

/** Applies one event to the state (also used live, right after each append). */
export function applyEvent(s: RunState, e: StampedEvent): void {
  switch (e.type) {
    case 'submit_started':
      s.pending = { submission: e.submission, checkpoint: e.checkpoint, parent: e.parent, cases: e.cases, note: e.note, ...(e.practice ? { practice: e.practice } : {}) };
      break;
    case 'submitted':
      s.pending = null;
      if (e.practice) {
        s.practiceUsed += e.charged;
        for (const c of e.cases) s.practiceCases.add(c);
        s.practice.set(e.submission, { submission: e.submission, checkpoint: e.checkpoint, cases: e.cases, mean: e.mean, count: e.count, params: e.practice });
        break;
      }
      s.used += e.charged;
      for (const c of e.cases) s.usedCases.add(c);
      s.submissions.set(e.submission, {
        submission: e.submission,
        checkpoint: e.checkpoint,
        parent: e.parent,
        cases: e.cases,
        mean: e.mean,
        okCount: e.okCount,
        count: e.count,
        budgetUsed: e.budgetUsed,
        editClass: e.editClass,
      });
      s.restoredFrom = null;
      break;
    case 'submit_rolled_back':
      s.pending = null;
      break;
    case 'restored':
      s.restoredFrom = e.submission;
      break;
    case 'finished':
      s.finish = { mode: e.mode, candidates: e.candidates, trigger: e.trigger };
      s.phase = 'validating';
      break;
    case 'validated':
      s.validated.set(e.checkpoint, e.stats);
      if (e.returns) s.validatedReturns.set(e.checkpoint, e.returns);
      break;
    case 'selected':
      s.selected = { submission: e.submission, reason: e.reason, ...(e.evidence ? { evidence: e.evidence } : {}) };
      s.phase = 'assessing';
      break;
    case 'assessed':
      s.assessed = e.stats;
      break;
    case 'assessed_starter':
      s.starter = { stats: e.stats, error: e.error };
      break;
    case 'revalidated':
      s.revalidated.set(e.checkpoint, { stats: e.stats, returns: e.returns });
      break;
    case 'assessed_baseline':
      s.baselines.set(e.name, { stats: e.stats, ...(e.error ? { error: e.error } : {}) });
      break;
    case 'completed':
      s.completed = true;
      s.phase = 'complete';
      break;
    default:
      break;
  }
}

export function foldJournal(events: readonly StampedEvent[]): RunState {
  const s = emptyState();
  for (const e of events) applyEvent(s, e);
  return s;
}
