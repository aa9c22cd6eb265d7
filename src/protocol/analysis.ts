/**
 * Edit analysis documents: what `src/analysis` computes about checkpoints, edits and whole runs.
 * The runner writes `RunDiagnostics` into `report.json` (`diagnostics`) and an `EditSummary`
 * (see feedback.ts, produced by `toEditSummary`) into each `summary.json`; the diagnostics panel
 * plots exactly these shapes. Plain JSON: no Maps, no class instances, no undefined in arrays.
 * Definitions: docs/DESIGN.md, "Edit classification".
 */
import type { EditClass, EditSummary } from './feedback';

/** Bump on any incompatible change to these shapes. */
export const ANALYSIS_VERSION = 1;

export type EditSizeBin = EditSummary['sizeBin'];

/** First detail line of a parametric edit that changed no literal value (comments/formatting only). */
export const COSMETIC_DETAIL = 'no literal or topology change (comments, formatting or types only)';

/** A literal as it is compared: numbers (unary minus folded in), strings, booleans; bigints as their digits. */
export type LiteralValue = number | string | boolean;
export type LiteralKind = 'number' | 'string' | 'boolean' | 'bigint';

/** One literal whose value differs between parent and child at the same place in the topology. */
export interface LiteralChange {
  /** Bundle-relative path (relative to `policy/`), e.g. `policy.ts`, `weights.json`. */
  file: string;
  /** 1-based line in the child (`parentLine` in the parent). */
  line: number;
  parentLine: number;
  kind: LiteralKind;
  old: LiteralValue;
  new: LiteralValue;
  /** Source text as written, e.g. `-0.5`, `'left'`. */
  oldText: string;
  newText: string;
  /**
   * Nearest named scope: `Policy.act`, `Policy.gain` (a field initializer), `choose` (a function),
   * `GAINS` (a top-level constant), a JSON path such as `weights[2]`, or null at module level.
   */
  enclosing: string | null;
}

/** Named code units the structural diff matches by name. */
export type UnitKind = 'function' | 'method' | 'class' | 'field' | 'variable';

export interface UnitRef {
  kind: UnitKind;
  /** `Policy.act`, `bfs`, `Grid`, `Policy.memory`, `GAINS`. */
  name: string;
  file: string;
}

export interface UnitMove {
  kind: UnitKind;
  name: string;
  from: string;
  to: string;
  /** The unit's own topology changed too. */
  modified: boolean;
}

export type ControlFlowKind =
  | 'if'
  | 'for'
  | 'for-of'
  | 'for-in'
  | 'while'
  | 'do-while'
  | 'switch'
  | 'case'
  | 'ternary'
  | 'and'
  | 'or'
  | 'nullish'
  | 'try';

/** Net change of the number of control-flow nodes of one kind inside one scope. */
export interface ControlFlowChange {
  kind: ControlFlowKind;
  /** Enclosing named scope, null at module level. */
  scope: string | null;
  file: string;
  /** Positive: added, negative: removed. */
  delta: number;
}

export interface StateFieldRef {
  /** Class owning the field (`Policy`, a helper class). */
  className: string;
  name: string;
  file: string;
}

export interface CallChange {
  /** Callee as written, normalised: `Math.max`, `this.plan`, `bfs`, `new Grid`, `grid.cells[]`. */
  target: string;
  scope: string | null;
  file: string;
  /** Positive: call sites added, negative: removed. */
  delta: number;
}

export interface ImportRef {
  /** Importing file. */
  file: string;
  /** Module specifier as written, e.g. `./planner`, `./weights.json`. */
  from: string;
  /** Imported binding (`default`, `*`, or the exported name); `''` for a side-effect import. */
  name: string;
}

export interface Rename {
  file: string;
  from: string;
  to: string;
  /** What the renamed identifier declares in the child, when known. */
  declares: 'variable' | 'parameter' | 'function' | 'class' | 'method' | 'field' | 'property' | 'unknown';
}

export interface StructuralChanges {
  modulesAdded: string[];
  modulesRemoved: string[];
  importsAdded: ImportRef[];
  importsRemoved: ImportRef[];
  unitsAdded: UnitRef[];
  unitsRemoved: UnitRef[];
  /** Units whose topology changed (literal-only changes are not modifications). */
  unitsModified: UnitRef[];
  /** Units found under the same name in another file (a module split or merge). */
  unitsMoved: UnitMove[];
  controlFlow: ControlFlowChange[];
  stateFieldsAdded: StateFieldRef[];
  stateFieldsRemoved: StateFieldRef[];
  callsAdded: CallChange[];
  callsRemoved: CallChange[];
  /** Identifier renames; when `renameOnly`, they are the whole topology change. */
  renames: Rename[];
  renameOnly: boolean;
  /** Files whose module-level code changed outside any named unit. */
  moduleCodeChanged: string[];
}

/** Code metrics of one checkpoint's bundle. */
export interface CheckpointMetrics {
  /** sha256 over the sorted (path, content) pairs of the bundle files. */
  contentHash: string;
  files: number;
  /** Lines holding at least one token (blank and comment-only lines excluded). */
  sourceLines: number;
  totalLines: number;
  /** Every function-like node: declarations, methods, constructors, accessors, arrows, function expressions. */
  functions: number;
  classes: number;
  /** Decision points that are not loops: if, ternary, case clauses (default excluded). */
  branches: number;
  loops: number;
  /** Sum of per-function cyclomatic complexity (module-level code counts as one more unit when it has decisions). */
  cyclomaticTotal: number;
  cyclomaticMax: number;
  /** Deepest nesting of if/loop/switch/try inside one function (else-if does not nest). */
  maxNestingDepth: number;
  /** Class fields (declared, parameter properties, or assigned through `this.x =`), all classes. */
  stateFields: number;
  /** Literal placeholders in the topology, JSON values included. */
  literals: number;
}

export interface FileEditSize {
  file: string;
  added: number;
  removed: number;
}

export interface EditSize {
  linesAdded: number;
  linesRemoved: number;
  /** max(linesAdded, linesRemoved): a line changed in place counts once. The bin is taken on this. */
  linesChanged: number;
  bin: EditSizeBin;
  files: FileEditSize[];
}

export interface BundleIssue {
  file: string;
  message: string;
}

/** Full result of classifying one edit (child against parent). */
export interface EditAnalysis {
  version: number;
  class: Exclude<EditClass, 'initial'>;
  /** parametric with no literal value changed: only comments, whitespace, formatting or type annotations moved. */
  cosmetic: boolean;
  parentHash: string;
  childHash: string;
  /** Changed literals; also filled for structural edits where the surrounding topology still aligns. */
  literalChanges: LiteralChange[];
  /** Present only when `class` is `structural`. */
  structural: StructuralChanges | null;
  size: EditSize;
  parentMetrics: CheckpointMetrics;
  childMetrics: CheckpointMetrics;
  /** Files under policy/ that policy.ts does not reach (excluded from the analysis). */
  unreachable: { parent: string[]; child: string[] };
  /** Problems found while reading the bundles (missing imports, syntax errors, …). */
  issues: BundleIssue[];
  /** Human-readable lines, most important first. */
  details: string[];
  /** Wall time of the analysis, ms. */
  elapsedMs: number;
}

// --- run diagnostics -----------------------------------------------------------------------

/** What the run diagnostics need per submission (summary.json plus metrics and, after the run, validation). */
export interface DiagnosticsSubmission {
  submission: number;
  /** Lineage parent (the previous submission unless a restore intervened); null for the first. */
  parent: number | null;
  /** Budget consumed when this submission finished. */
  budgetUsed: number;
  /** Train mean return of this submission; null when no episode ran. */
  trainMean: number | null;
  /** The edit against the parent; null when unknown (analysis failed or unavailable). */
  edit: EditSummary | null;
  metrics: CheckpointMetrics | null;
  /** Validation mean when this submission was validated after the run. */
  validationMean?: number | null;
}

export interface ProgressPoint {
  submission: number;
  budgetUsed: number;
  value: number | null;
  bestSoFar: number | null;
  /** This submission set a new best (strictly greater than every earlier value). */
  newBest: boolean;
  editClass: EditClass | 'unknown';
  /** First detail line of the edit, e.g. "if added in Policy.act". */
  editLabel: string;
}

export interface EffectivenessRow {
  editClass: EditClass | 'unknown';
  edits: number;
  /** Edits that set a new best train mean. */
  newBestTrain: number;
  trainRate: number | null;
  /** Edits of this class that were validated. */
  validatedEdits: number;
  /** Validated edits whose validation mean beat every earlier validated submission. */
  newBestValidation: number;
  validationRate: number | null;
}

export interface SizePoint {
  submission: number;
  editClass: EditClass | 'unknown';
  linesChanged: number;
  sizeBin: EditSizeBin;
  /** Train mean minus the parent's train mean (null when either is unknown). */
  deltaVsParent: number | null;
  /** Train mean minus the best train mean before this submission. */
  deltaVsBest: number | null;
}

export interface SizeBinRow {
  sizeBin: EditSizeBin;
  edits: number;
  meanDeltaVsParent: number | null;
  newBestRate: number | null;
}

/** The checkpoint's counts at one point of the run (complexity growth over time). */
export interface ComplexityPoint extends Omit<CheckpointMetrics, 'contentHash' | 'files' | 'totalLines'> {
  submission: number;
  budgetUsed: number;
}

/** `report.json` → `diagnostics`. */
export interface RunDiagnostics {
  version: number;
  submissions: number;
  editShare: {
    counts: Record<EditClass | 'unknown', number>;
    /** parametric edits that changed no literal (comment/format only). */
    cosmetic: number;
    /** Shares over the edits after the first (identical + parametric + structural). */
    structuralShare: number | null;
    parametricShare: number | null;
    identicalShare: number | null;
  };
  trainProgress: ProgressPoint[];
  /** Present when validation means were given. */
  validationProgress: ProgressPoint[] | null;
  effectiveness: EffectivenessRow[];
  sizeVsImprovement: { points: SizePoint[]; bins: SizeBinRow[] };
  complexity: ComplexityPoint[];
}
