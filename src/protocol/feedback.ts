/**
 * Feedback and report documents: the JSON the runner writes into the workspace
 * (`feedback/submit-NNNN/summary.json`, `feedback/latest.json`, `.policyforge/report.json`)
 * and returns over the protocol. Panels, tree views and agents read exactly these shapes.
 */
import type { AgentRecord } from './agent';
import type { EpisodeRecord, EpisodeStatus } from './episodes';
import type { SkillRate } from './skills';
import type { PracticeInfo } from './training';
import type { Attribution } from './attribution';

export interface BudgetState {
  total: number;
  used: number;
  remaining: number;
}

export interface ReturnStats {
  mean: number;
  std: number;
  stderr: number;
  min: number;
  max: number;
  /** Episodes with status `ok`. */
  okCount: number;
  count: number;
}

export type EditClass = 'initial' | 'identical' | 'parametric' | 'structural';

/** What the edit analysis says about a submission against its parent (absent until analysis ran). */
export interface EditSummary {
  class: EditClass;
  /** Submission number of the parent checkpoint, or null for the first submission. */
  parent: number | null;
  linesAdded: number;
  linesRemoved: number;
  sizeBin: 'none' | 'small' | 'medium' | 'large';
  /** Short human-readable lines: "if added in act", "gain 0.5 → 0.7 (policy.ts:12)". */
  details: string[];
}

/** An episode as summary.json lists it: the record without its bulk trajectory and log (those live in episodes/ and logs/). */
export type EpisodeSummary = Omit<EpisodeRecord, 'trajectory' | 'log'> & {
  /**
   * A failed episode's sum of rewards up to the failure, kept for diagnosis; its `return` is then
   * the score every mean counts, the environment's failure return (src/stats/failureScore.ts).
   */
  partialReturn?: number;
};

/** A submission against an earlier one on the cases both ran (same case index = same hidden seeds). */
export interface PairedComparison {
  /** The earlier submission. */
  against: number;
  /** Cases both ran; a case run twice by one submission counts once, its returns averaged. */
  shared: number;
  /** Mean over shared cases of (this − against); null when nothing is shared. */
  meanDifference: number | null;
  /** Seeded percentile-bootstrap 95% interval of `meanDifference`; null with fewer than two shared cases. */
  ci95: [number, number] | null;
  /** With nothing shared: the cases of `against` to resubmit on for a paired comparison. */
  resubmitCases?: string;
}

/** Paired evidence a submission carries: against its parent and against the best train mean before it. */
export interface PairedEvidence {
  parent: PairedComparison | null;
  bestSoFar: PairedComparison | null;
}

/** `feedback/submit-NNNN/summary.json` */
export interface SubmissionSummary {
  submission: number;
  /** Content hash of the checkpointed `policy/` bundle. */
  checkpoint: string;
  createdAt: string;
  envId: string;
  cases: number[];
  episodes: EpisodeSummary[];
  stats: ReturnStats;
  /** Episode counts per status. */
  statusCounts: Partial<Record<EpisodeStatus, number>>;
  wallMs: number;
  budget: BudgetState;
  edit?: EditSummary;
  /** Submission whose checkpoint this one descends from (the previous one, or the last restored). */
  parent?: number | null;
  /** Episodes charged to the budget (runner faults are not charged). */
  charged?: number;
  /** Free text the submitter attached. */
  note?: string;
  /** What each failed episode scores in `stats` (absent in older feedback, whose means used partial returns). */
  failureReturn?: number;
  /** Differences from the parent and the best so far on shared cases (absent in older feedback). */
  paired?: PairedEvidence;
  /** Each declared skill's rate over the episodes, in declaration order (absent for families without skills). */
  skills?: SkillRate[];
  /** Which functions and branches ran in failed or low-return episodes as against successful ones (absent when the episodes do not split). */
  attribution?: Attribution;
  /** Relative paths of the bulk files, when still on disk (oldest may be evicted by byte caps). */
  files: { trajectories: string[]; logs: string[]; evicted: boolean };
  /** Present on practice submissions (`--config`): charged to the practice budget, never selected. */
  practice?: PracticeInfo;
}

export interface CandidateResult {
  submission: number;
  checkpoint: string;
  validationMean: number;
  validationStderr: number;
  trainMean: number;
  /** Validation episodes and how many ended ok (selection prefers fewer failures on equal means). */
  validationCount?: number;
  validationOkCount?: number;
}

export interface CurvePoint {
  /** Budget consumed when this submission finished. */
  budgetUsed: number;
  submission: number;
  value: number;
}

/** One comparison of the gated selection: the candidate against the incumbent on each half of the validation cases. */
export interface GateStep {
  candidate: number;
  incumbent: number;
  /** The threshold this comparison used. */
  delta: number;
  /** Candidate mean minus incumbent mean on the first and on the second half of the validation cases. */
  differences: [number, number];
  /** Both differences exceeded `delta`: the candidate became the incumbent. */
  accepted: boolean;
}

/** How a gated run chose its submission (src/stats/selectionGate.ts). */
export interface SelectionEvidence {
  rule: 'gated';
  /** The Δ the run was given; null: one standard error of each incumbent's validation mean. */
  delta: number | null;
  /** The first incumbent (the earliest candidate). */
  first: number | null;
  steps: GateStep[];
}

/** `.policyforge/report.json` */
export interface RunReport {
  envId: string;
  completedAt: string;
  budget: BudgetState;
  selectionMode: 'paper' | 'candidates' | 'gated';
  /** The gated selection's comparisons (gated mode). */
  selection?: SelectionEvidence;
  /** Elite re-evaluation: the top candidates' first validation mean and their mean on fresh validation cases; only they competed. */
  elite?: { submission: number; checkpoint: string; validationMean: number; freshMean: number; freshCases: number }[];
  /** null when no submission qualified; `reason` then says why. */
  selected: number | null;
  reason?: string;
  candidates: CandidateResult[];
  heldOut: ReturnStats | null;
  /** Checkpoint id of the selected submission. */
  selectedCheckpoint?: string;
  /** What each failed validation or held-out episode scored. */
  failureReturn?: number;
  /** The environment's starter policy on the same held-out cases (the baseline to beat), when it ran. */
  starterHeldOut?: ReturnStats | null;
  /**
   * Other baselines on the same held-out cases, by name (`uniform-random`: the uniform random
   * policy; `autotune`, on request: autotune given the same budget on the same cases, with that
   * budget and the submission its own selection picked).
   */
  baselines?: Record<string, { heldOut: ReturnStats | null; error?: string; budget?: { used: number; total: number }; selected?: number | null }>;
  /** Best-so-far validation mean against budget consumed (post-hoc). */
  validationCurve: CurvePoint[];
  /** Best-so-far train mean against budget consumed. */
  trainCurve: CurvePoint[];
  /**
   * The agent PolicyForge launched on this run (`run --agent-cmd`, `policyforge agent`, VS Code's
   * LM agent): added once, when its ending is known, by `addAgentToReport` (src/agents/agentRecord.ts).
   */
  agent?: AgentRecord;
  /** Evolution diagnostics from the edit analysis (absent when analysis was unavailable). */
  diagnostics?: unknown;
}
