/**
 * Code attribution: which parts of the policy (functions and branches) ran in a submission's
 * failed or low-return episodes as against its successful ones. The sandbox records, per
 * episode, which coverage probes of the bundle ran (`EpisodeRecord.coverage`); the runner ranks
 * the probes by how differently they ran in the two groups (src/stats/attribution.ts) and keeps
 * the top few in summary.json. Plain JSON data; the zod schema sits beside the types.
 */
import { z } from 'zod';

/**
 * What a probe marks: a function's body, the `then` or `else` of an `if`, a `case` of a switch,
 * a loop's body, a side of a `?:`, the right operand of `&&`, `||` or `??`, a `catch` block.
 */
export type ProbeKind = 'function' | 'then' | 'else' | 'case' | 'loop' | 'ternary-then' | 'ternary-else' | 'right-operand' | 'catch';

/** One probe of a bundle, mapped through the bundle's source map to `policy/*.ts`. */
export interface CoverageProbe {
  /** Index into an episode's coverage (the probes of a bundle are numbered in source order). */
  id: number;
  kind: ProbeKind;
  /** Path relative to the workspace root, e.g. `policy/policy.ts`. */
  file: string;
  /** 1-based line and column where the marked code starts, and the line where it ends. */
  line: number;
  column: number;
  endLine: number;
  /** The function it is in (`act`, `Policy.act`, `helper`), when it has a name. */
  function?: string;
}

/** A place in the policy (a probe without its id) and how often it ran in each group of episodes. */
export interface AttributionEntry extends Omit<CoverageProbe, 'id'> {
  /** Share of the low group's episodes in which this code ran, in [0, 1]. */
  lowRate: number;
  /** Share of the high group's episodes in which this code ran, in [0, 1]. */
  highRate: number;
  /** Other places that ran in exactly the same episodes (up to three), `file:line`. */
  alsoAt?: string[];
}

/** A submission's attribution: the two groups of episodes and the places that tell them apart most. */
export interface Attribution {
  /** Episodes in the low group: every failed episode and those scoring at or below `lowScore`. */
  low: number;
  /** Episodes in the high group: ok episodes scoring at least `highScore` (and above `lowScore`). */
  high: number;
  /** The first quartile of the scores: at or below it an episode is low. */
  lowScore: number;
  /** The median of the scores: at or above it (and above `lowScore`) an ok episode is high. */
  highScore: number;
  /** Probes in the policy's code. */
  probes: number;
  /** Largest difference |lowRate − highRate| first; places that ran more in low episodes first on ties. */
  entries: AttributionEntry[];
}

const num = z.number();
const probeKindSchema = z.enum(['function', 'then', 'else', 'case', 'loop', 'ternary-then', 'ternary-else', 'right-operand', 'catch']);

export const attributionEntrySchema: z.ZodType<AttributionEntry> = z.looseObject({
  kind: probeKindSchema,
  file: z.string(),
  line: num,
  column: num,
  endLine: num,
  function: z.string().optional(),
  lowRate: num,
  highRate: num,
  alsoAt: z.array(z.string()).optional(),
});

export const attributionSchema: z.ZodType<Attribution> = z.looseObject({
  low: num,
  high: num,
  lowScore: num,
  highScore: num,
  probes: num,
  entries: z.array(attributionEntrySchema),
});
