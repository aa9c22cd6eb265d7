/**
 * Reads `minigrid-delta/1` trajectories (the layout `../minigridTrajectory.ts` defines) back into
 * plain steps: each step's observation is re-derived from the world and the view rows the line
 * stores, each snapshot from the cells it changed.
 */
import { z } from 'zod';
import { describeIssues } from '../documents';
import type { TrajectoryStep } from '../episodes';
import { VIEW } from '../minigridTrajectory';

/** The agent's own cell in the view, index i*7+j with (i, j) = (3, 6). */
const AGENT_VIEW_CELL = 27;
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];
/** Grid.encode() of an empty cell, a grey wall (cells outside the grid), an unseen cell. */
const EMPTY: readonly number[] = [1, 0, 0];
const WALL: readonly number[] = [2, 5, 0];
const UNSEEN: readonly number[] = [0, 0, 0];

const int = z.number().int();
const pose = z.tuple([int, int, int.min(0).max(3)]);
type Encoded = [number, number, number] | [number, number, number, unknown];
const encoded: z.ZodType<Encoded> = z.union([z.tuple([int, int, int]), z.tuple([int, int, int, z.unknown()])]);
/** Visibility of the 7×7 view: 7 rows j = 0..6 (j = 6 is the agent's row), bit i = view column i. */
const viewRows = z.array(int.min(0).max(127)).length(VIEW);

/** The header's `initialSnapshot`: MiniGrid's snapshot after reset, plus the view it saw. */
export const miniGridStartSchema = z.looseObject({
  width: int.min(1),
  height: int.min(1),
  grid: z.string().regex(/^[0-9]*$/),
  agent: pose,
  carrying: encoded.nullable(),
  mission: z.string(),
  maxSteps: int,
  step: int.optional(),
  view: viewRows,
});
export type MiniGridStart = z.infer<typeof miniGridStartSchema>;

/**
 * One step line: the action and its reward always, the flags only when true, `info` only when
 * it differs from the step before (`{}` when it became empty), the agent's pose always, and the
 * rest only when the step changed it: `cells` as [x, y, type, color, state] (the agent is not
 * drawn), `carrying` (null once dropped), `view` (visibility rows as in the header).
 */
export const miniGridDeltaStepSchema = z.looseObject({
  action: z.unknown(),
  reward: z.number(),
  terminated: z.boolean().optional(),
  truncated: z.boolean().optional(),
  info: z.record(z.string(), z.unknown()).optional(),
  agent: pose,
  cells: z.array(z.tuple([int, int, int, int, int])).optional(),
  carrying: encoded.nullable().optional(),
  view: viewRows.optional(),
});
export type MiniGridDeltaStep = z.infer<typeof miniGridDeltaStepSchema>;

/** The world cell seen at view cell (i, j), for an agent at (x, y) facing `dir`. */
function viewCellToWorld(x: number, y: number, dir: number, i: number, j: number): [number, number] {
  const f = VIEW - 1 - j;
  const r = i - 3;
  const dx = DX[dir]!;
  const dy = DY[dir]!;
  return [x + dx * f - dy * r, y + dy * f + dx * r];
}

/** The world cells in view, as x*H+y, sorted (MiniGridSnapshot.visible). */
export function visibleCells(width: number, height: number, agent: readonly number[], rows: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < VIEW; i++) {
    for (let j = 0; j < VIEW; j++) {
      if (((rows[j]! >> i) & 1) === 0) continue;
      const [x, y] = viewCellToWorld(agent[0]!, agent[1]!, agent[2]!, i, j);
      if (x >= 0 && y >= 0 && x < width && y < height) out.push(x * height + y);
    }
  }
  return out.sort((a, b) => a - b);
}

/** A world being replayed: the grid as one 3-digit code per cell, the pose, what is carried, the view. */
class ReplayWorld {
  readonly cells: string[] = [];
  agent: [number, number, number];
  carrying: Encoded | null;
  view: number[];

  constructor(readonly start: MiniGridStart) {
    const { width, height, grid } = start;
    if (grid.length !== width * height * 3) throw new Error(`the world's grid has ${grid.length} digits, not width × height × 3 = ${width * height * 3}`);
    for (let k = 0; k < width * height; k++) this.cells.push(grid.slice(k * 3, k * 3 + 3));
    this.agent = [...start.agent];
    this.carrying = start.carrying;
    this.view = [...start.view];
  }

  private code(x: number, y: number): readonly number[] {
    const { width, height } = this.start;
    if (x < 0 || y < 0 || x >= width || y >= height) return WALL;
    const c = this.cells[x * height + y]!;
    return [c.charCodeAt(0) - 48, c.charCodeAt(1) - 48, c.charCodeAt(2) - 48];
  }

  /** MiniGrid's observation in this state: the encoded 7×7 view (unseen cells 0), direction, mission. */
  observation(): { image: number[]; direction: number; mission: string } {
    const [x, y, dir] = this.agent;
    const image: number[] = [];
    for (let i = 0; i < VIEW; i++) {
      for (let j = 0; j < VIEW; j++) {
        const seen = ((this.view[j]! >> i) & 1) === 1;
        let enc: readonly number[];
        if (!seen) enc = UNSEEN;
        // The agent sees what it carries in its own cell; the agent itself is never drawn.
        else if (i * VIEW + j === AGENT_VIEW_CELL) enc = this.carrying === null ? EMPTY : (this.carrying.slice(0, 3) as number[]);
        else enc = this.code(...viewCellToWorld(x, y, dir, i, j));
        image.push(enc[0]!, enc[1]!, enc[2]!);
      }
    }
    return { image, direction: dir, mission: this.start.mission };
  }

  apply(s: MiniGridDeltaStep, k: number): void {
    const { width, height } = this.start;
    this.agent = [...s.agent];
    for (const [x, y, t, c, st] of s.cells ?? []) {
      if (x < 0 || y < 0 || x >= width || y >= height) throw new Error(`step ${k}: changed cell (${x},${y}) is outside the ${width}×${height} grid`);
      this.cells[x * height + y] = `${t}${c}${st}`;
    }
    if (s.carrying !== undefined) this.carrying = s.carrying;
    if (s.view !== undefined) this.view = [...s.view];
  }

  /** MiniGridSnapshot of this state after `step` steps. */
  snapshot(step: number): Record<string, unknown> {
    const { width, height, mission, maxSteps } = this.start;
    return {
      width,
      height,
      grid: this.cells.join(''),
      agent: [...this.agent],
      carrying: this.carrying,
      visible: visibleCells(width, height, this.agent, this.view),
      mission,
      step,
      maxSteps,
    };
  }
}

/**
 * The plain trajectory of a `minigrid-delta/1` one: `initialSnapshot` is the header's without its
 * `view`, each step gets its observation and snapshot back. Throws an
 * Error naming the step when the data does not fit the format.
 */
export function expandMiniGridSteps(initial: unknown, steps: readonly unknown[]): { initialSnapshot: unknown; steps: TrajectoryStep[] } {
  const start = miniGridStartSchema.safeParse(initial);
  if (!start.success) throw new Error(`the header's initialSnapshot is not a MiniGrid world (${describeIssues(start.error, 'initialSnapshot', 2)})`);
  const world = new ReplayWorld(start.data);
  const initialStep = start.data.step ?? 0;
  const out: TrajectoryStep[] = [];
  let info: Record<string, unknown> | undefined;
  steps.forEach((raw, i) => {
    const k = i + 1;
    const parsed = miniGridDeltaStepSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`step ${k} is not a MiniGrid step (${describeIssues(parsed.error, 'step', 2)})`);
    const s = parsed.data;
    const observation = world.observation();
    world.apply(s, k);
    if (s.info !== undefined) info = Object.keys(s.info).length === 0 ? undefined : s.info;
    const step: TrajectoryStep = { observation, action: s.action, reward: s.reward, terminated: s.terminated === true, truncated: s.truncated === true };
    if (info !== undefined) step.info = info;
    step.snapshot = world.snapshot(initialStep + k);
    out.push(step);
  });
  // The header is the plain snapshot after reset plus the view it saw.
  const { view: _view, ...initialSnapshot } = start.data;
  return { initialSnapshot, steps: out };
}
