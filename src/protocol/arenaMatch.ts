/**
 * The arena's match trajectories: `feedback/submit-NNNN/games/game-NNNNN.jsonl`, one file per
 * charged game, a header line, one line per step and an outcome line. Two step formats, one per
 * game (`ctf-match/1`, `connect-four-match/1`). Written by the runner (src/runner/arena/games.ts
 * from the sandbox's recorder), read by the match replay (src/extension/panels/arenaMatch.ts).
 */
import { z } from 'zod';
import { arenaGameErrorSchema, arenaOutcomeSchema, arenaStageSchema, opponentKindSchema } from './arena';
import { checkWith, parseJsonWith, type Checked } from './documents';

const num = z.number();
const int = z.number().int();

export const CTF_MATCH_FORMAT = 'ctf-match/1';
export const CONNECT_FOUR_MATCH_FORMAT = 'connect-four-match/1';

/** First line. `agents` fixes the order of each step's agent rows (CTF). */
export const matchHeaderSchema = z.looseObject({
  type: z.literal('header'),
  format: z.enum([CTF_MATCH_FORMAT, CONNECT_FOUR_MATCH_FORMAT]),
  envId: z.string(),
  params: z.record(z.string(), z.union([num, z.boolean(), z.string()])),
  submission: int,
  game: int,
  stage: arenaStageSchema,
  seed: int,
  /** Seat order. */
  sides: z.tuple([z.string(), z.string()]),
  submissionSide: z.string(),
  opponent: z.string(),
  opponentKind: opponentKindSchema,
  agents: z.array(z.string()),
  /** CTF: the field in metres and where each flag's home is. */
  field: z.looseObject({ length: num, width: num }).optional(),
  flagHomes: z.record(z.string(), z.tuple([num, num])).optional(),
  /** Connect Four: the board size. */
  rows: int.optional(),
  cols: int.optional(),
});
export type MatchHeader = z.infer<typeof matchHeaderSchema>;

/** CTF step: one row per agent in header order, [x, y, heading, tagged 0/1, carrying 0/1] in metres/radians. */
export const ctfStepSchema = z.looseObject({
  type: z.literal('step'),
  t: int,
  agents: z.array(z.tuple([num, num, num, int, int])),
  /** Per team: [x, y, carrier agent id or null]. */
  flags: z.record(z.string(), z.tuple([num, num, z.string().nullable()])),
  captures: z.record(z.string(), int),
  events: z.array(z.looseObject({ kind: z.enum(['grab', 'capture', 'tag', 'home']), agent: z.string(), other: z.string().optional() })).optional(),
});
export type CtfStep = z.infer<typeof ctfStepSchema>;

/** Connect Four step: the side that moved and its column (the board follows from the moves); column -1 is an illegal move into a full column, which lost the game. */
export const connectFourStepSchema = z.looseObject({
  type: z.literal('step'),
  t: int,
  mover: z.string(),
  column: int,
});
export type ConnectFourStep = z.infer<typeof connectFourStepSchema>;

/** Last line. `outcome` is the submission's. */
export const matchOutcomeSchema = z.looseObject({
  type: z.literal('outcome'),
  outcome: arenaOutcomeSchema,
  scores: z.record(z.string(), num),
  steps: int,
  truncated: z.boolean(),
  error: arenaGameErrorSchema.optional(),
  /** Connect Four: the final board, row 0 at the top, 0 empty, 1 first seat, 2 second. */
  board: z.array(int).optional(),
});
export type MatchOutcome = z.infer<typeof matchOutcomeSchema>;

export interface MatchTrajectory {
  header: MatchHeader;
  steps: (CtfStep | ConnectFourStep)[];
  outcome: MatchOutcome | null;
}

/** Reads one match trajectory file's text; a truncated tail (no outcome) is allowed, a bad line is not. */
export function parseMatchTrajectory(text: string): Checked<MatchTrajectory> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return { ok: false, error: 'empty match trajectory' };
  const header = parseJsonWith(matchHeaderSchema, lines[0] as string);
  if (!header.ok) return { ok: false, error: `line 1: ${header.error}` };
  const stepSchema = header.value.format === CTF_MATCH_FORMAT ? ctfStepSchema : connectFourStepSchema;
  const steps: (CtfStep | ConnectFourStep)[] = [];
  let outcome: MatchOutcome | null = null;
  for (let i = 1; i < lines.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(lines[i] as string);
    } catch {
      return { ok: false, error: `line ${i + 1}: not JSON` };
    }
    const isOutcome = (value as { type?: unknown } | null)?.type === 'outcome';
    const r = isOutcome ? checkWith(matchOutcomeSchema, value) : checkWith<CtfStep | ConnectFourStep>(stepSchema, value);
    if (!r.ok) return { ok: false, error: `line ${i + 1}: ${r.error}` };
    if (isOutcome) outcome = r.value as MatchOutcome;
    else steps.push(r.value as CtfStep | ConnectFourStep);
  }
  return { ok: true, value: { header: header.value, steps, outcome } };
}
