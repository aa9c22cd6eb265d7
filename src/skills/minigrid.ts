/**
 * MiniGrid and BabyAI skills, read from the world after each step: pickups (the key, the task's
 * target), doors opened and unlocked, boxes opened, the goal reached, lava avoided, and for BabyAI
 * each sub-goal of the instruction. A skill the episode's world gives no chance at (no lava, no
 * locked door) is null for that episode, so it does not dilute the rate.
 */
import { ACTION, OBJECT, STATE } from '../envs/minigrid/constants';
import type { Instr } from '../envs/minigrid/babyai/instr';
// The level classes come through the family's first-use loader: a worker that runs no MiniGrid
// environment never loads them (a tracker is only made for an environment already made).
import { minigridImplementations } from '../envs/minigrid/lazy';
import type { StepResult } from '../envs/core/env';
import type { EpisodeSkills } from '../protocol/skills';
import type { SkillDeclaration, SkillFamily, SkillTracker } from './types';

/** The parts of MiniGridWorld a tracker reads (its fields are public, read-only by convention). */
interface World {
  width: number;
  height: number;
  stride: number;
  cells: Int32Array;
  objType: Uint8Array;
  objState: Uint8Array;
  agentX: number;
  agentY: number;
  agentDir: number;
  carrying: number;
  targetId: number;
  agentIndex(): number;
  index(x: number, y: number): number;
}

const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];
const PICKABLE = new Set<number>([OBJECT.key, OBJECT.ball, OBJECT.box]);
const SUBGOAL_OPS = ['goto', 'pickup', 'open', 'putnext'] as const;

const BASE: readonly SkillDeclaration[] = [
  { id: 'reached_goal', label: 'reached the goal', kind: 'success' },
  { id: 'avoided_lava', label: 'avoided lava', kind: 'success' },
  { id: 'picked_up_key', label: 'picked up a key', kind: 'success' },
  { id: 'picked_up_target', label: 'picked up the target object', kind: 'success' },
  { id: 'opened_door', label: 'opened a door', kind: 'success' },
  { id: 'unlocked_door', label: 'unlocked a locked door', kind: 'success' },
  { id: 'opened_box', label: 'opened a box', kind: 'success' },
  { id: 'steps_to_first_pickup', label: 'steps to the first pickup', kind: 'steps' },
];

const BABYAI: readonly SkillDeclaration[] = [
  { id: 'mission_done', label: 'completed the instruction', kind: 'success' },
  ...SUBGOAL_OPS.map((op): SkillDeclaration => ({ id: `subgoal_${op}`, label: `sub-goal done: ${op}`, kind: 'success' })),
];

class MiniGridTracker implements SkillTracker {
  private readonly present = new Set<number>();
  private readonly lockedAtStart = new Set<number>();
  private closedDoors = false;
  private steps = 0;
  private firstPickup: number | null = null;
  private pickedKey = false;
  private pickedTarget = false;
  private openedDoor = false;
  private unlocked = false;
  private openedBox = false;
  private reachedGoal = false;
  private touchedLava = false;
  private succeeded = false;
  /** What the agent faced before the step (toggling a box replaces it with its contents). */
  private frontBefore = 0;
  private readonly targetPickable: boolean;

  constructor(private readonly w: World) {
    for (let y = 0; y < w.height; y++) {
      for (let x = 0; x < w.width; x++) {
        const id = w.cells[w.index(x, y)]!;
        if (id === 0) continue;
        const type = w.objType[id]!;
        this.present.add(type);
        if (type === OBJECT.door && w.objState[id] !== STATE.open) this.closedDoors = true;
        if (type === OBJECT.door && w.objState[id] === STATE.locked) this.lockedAtStart.add(id);
      }
    }
    this.targetPickable = w.targetId !== 0 && PICKABLE.has(w.objType[w.targetId]!);
    this.frontBefore = this.front();
  }

  private frontIndex(): number {
    return this.w.agentIndex() + DX[this.w.agentDir]! + DY[this.w.agentDir]! * this.w.stride;
  }

  private front(): number {
    return this.w.cells[this.frontIndex()]!;
  }

  step(action: unknown, r: StepResult<unknown>): void {
    const w = this.w;
    this.steps++;
    if (r.reward > 0) this.succeeded = true;
    if (action === ACTION.pickup && w.carrying !== 0 && this.firstPickup === null) this.firstPickup = this.steps;
    if (action === ACTION.pickup && w.carrying !== 0) {
      if (w.objType[w.carrying] === OBJECT.key) this.pickedKey = true;
      if (w.carrying === w.targetId) this.pickedTarget = true;
    }
    const here = w.cells[w.agentIndex()]!;
    if (here !== 0) {
      const t = w.objType[here];
      if (t === OBJECT.goal) this.reachedGoal = true;
      if (t === OBJECT.lava) this.touchedLava = true;
    }
    if (action === ACTION.toggle) {
      const id = this.front();
      if (id !== 0 && w.objType[id] === OBJECT.door && w.objState[id] === STATE.open) {
        this.openedDoor = true;
        if (this.lockedAtStart.has(id)) this.unlocked = true;
      }
      if (this.frontBefore !== 0 && w.objType[this.frontBefore] === OBJECT.box && id !== this.frontBefore) this.openedBox = true;
    }
    this.frontBefore = this.front();
  }

  outcomes(): EpisodeSkills {
    const has = (type: number): boolean => this.present.has(type);
    const flag = (applies: boolean, v: boolean): number | null => (applies ? (v ? 1 : 0) : null);
    const out: EpisodeSkills = {
      reached_goal: flag(has(OBJECT.goal), this.reachedGoal),
      avoided_lava: flag(has(OBJECT.lava), !this.touchedLava),
      picked_up_key: flag(has(OBJECT.key), this.pickedKey),
      picked_up_target: flag(this.targetPickable, this.pickedTarget),
      opened_door: flag(this.closedDoors, this.openedDoor),
      unlocked_door: flag(this.lockedAtStart.size > 0, this.unlocked),
      opened_box: flag(has(OBJECT.box), this.openedBox),
      steps_to_first_pickup: this.firstPickup,
    };
    if (this.w instanceof minigridImplementations().BabyAILevel) Object.assign(out, babyAiSubgoals(this.w.instrs, this.succeeded));
    return out;
  }
}

/**
 * The instruction's leaves (goto, pickup, open, putnext), each done or not: a sequence node
 * remembers which of its halves succeeded; the whole instruction done means every leaf is.
 */
export function babyAiSubgoals(root: Instr, missionDone: boolean): EpisodeSkills {
  const done = new Map<string, number[]>();
  const { SeqInstr } = minigridImplementations();
  const visit = (instr: Instr, ok: boolean): void => {
    if (instr instanceof SeqInstr) {
      visit(instr.a, ok || instr.aDone === 'success');
      visit(instr.b, ok || instr.bDone === 'success');
      return;
    }
    const list = done.get(instr.op) ?? [];
    list.push(ok ? 1 : 0);
    done.set(instr.op, list);
  };
  visit(root, missionDone);
  const out: EpisodeSkills = { mission_done: missionDone ? 1 : 0 };
  for (const op of SUBGOAL_OPS) {
    const list = done.get(op);
    out[`subgoal_${op}`] = list ? list.reduce((a, b) => a + b, 0) / list.length : null;
  }
  return out;
}

export const miniGridSkills: SkillFamily = {
  family: 'minigrid',
  skills: (envId) => (envId.startsWith('BabyAI-') ? [...BASE, ...BABYAI] : BASE),
  track: (_envId, _family, env) => new MiniGridTracker(env as World),
};
