/**
 * The multi-agent contract, beside (not instead of) the single-agent `Env`: several named
 * agents act at once, each with its own observation and action space. A turn-based game is the
 * case where `activeAgents()` names one agent per step; the others' actions are ignored.
 *
 * A policy keeps the single-agent Policy ABI: it controls one side (one agent or a whole team),
 * and its context names those agents (`ownAgents`). `sideView` turns a multi-agent environment
 * plus the other sides' policies into a plain `Env` seen from one side, so everything that runs
 * single-agent episodes can run a match.
 */
import { EMPTY_INFO, type Env, type EnvState, type Info, type ResetOptions, type ResetResult, type StepResult } from './env';
import type { Seed } from './rng';
import { Dict, type Space } from './spaces';

export type AgentId = string;
export type PerAgent<T> = Record<AgentId, T>;

export interface MultiResetResult {
  observations: PerAgent<unknown>;
  info: Info;
}

export interface MultiStepResult {
  observations: PerAgent<unknown>;
  rewards: PerAgent<number>;
  /** The game is over for everyone (a win, a draw by rule). */
  terminated: boolean;
  /** The time limit ended the game. */
  truncated: boolean;
  info: Info;
}

export interface MultiAgentEnv {
  /** Every agent, in a fixed order. */
  readonly agents: readonly AgentId[];
  /** Sides (teams); each agent belongs to exactly one. Two-sided games list two. */
  readonly sides: Readonly<Record<string, readonly AgentId[]>>;
  observationSpace(agent: AgentId): Space;
  actionSpace(agent: AgentId): Space;
  reset(opts?: ResetOptions): MultiResetResult;
  /** `actions` holds an action for every active agent; other entries are ignored. */
  step(actions: PerAgent<unknown>): MultiStepResult;
  /** Agents whose action counts this step: all of them for simultaneous play, one for turns. */
  activeAgents(): readonly AgentId[];
  /** Final outcome per side once the game ended: the side's score (captures, 1/0/-1…). */
  scores(): Readonly<Record<string, number>>;
  getState(): EnvState;
  setState(state: EnvState): void;
  snapshot?(): unknown;
  renderText?(): string;
}

/** What a policy acting for one side sees in its context. */
export interface SideContext {
  readonly side: string;
  readonly ownAgents: readonly AgentId[];
  readonly activeAgents: readonly AgentId[];
}

/** A side's controller: given its agents' observations, an action per own agent. */
export type SidePolicy = (observations: PerAgent<unknown>, ctx: SideContext) => PerAgent<unknown>;

export class MultiAgentContractError extends Error {
  override name = 'MultiAgentContractError';
}

/** The side an agent belongs to. */
export function sideOf(env: MultiAgentEnv, agent: AgentId): string {
  for (const [side, members] of Object.entries(env.sides)) if (members.includes(agent)) return side;
  throw new MultiAgentContractError(`agent ${agent} belongs to no side`);
}

function pick(all: PerAgent<unknown>, agents: readonly AgentId[]): PerAgent<unknown> {
  const out: PerAgent<unknown> = {};
  for (const a of agents) out[a] = all[a];
  return out;
}

/** Checks one side's actions against the action spaces of its active agents. */
export function checkSideActions(env: MultiAgentEnv, side: string, actions: unknown): PerAgent<unknown> {
  if (actions === null || typeof actions !== 'object') {
    throw new MultiAgentContractError(`side ${side} returned ${actions === null ? 'null' : typeof actions}; expected an object with an action per own agent`);
  }
  const own = env.sides[side] ?? [];
  const active = env.activeAgents();
  const rec = actions as PerAgent<unknown>;
  for (const a of own) {
    if (!active.includes(a)) continue;
    if (!(a in rec)) throw new MultiAgentContractError(`side ${side} gave no action for its active agent ${a}`);
    if (!env.actionSpace(a).contains(rec[a])) throw new MultiAgentContractError(`side ${side}: action ${JSON.stringify(rec[a])} for ${a} is outside its action space`);
  }
  return rec;
}

/**
 * One side's view of a match: observation = its agents' observations (a record), action = an
 * action per own agent, reward = the sum of its agents' rewards. The other sides act through
 * `opponents` inside `step`, so the wrapper is an ordinary `Env` the existing episode loop
 * runs. On turn-based games the view advances through the opponents' turns before returning,
 * so the side only ever sees states where one of its own agents is to move (or the end).
 */
export class SideView implements Env<PerAgent<unknown>, PerAgent<unknown>> {
  readonly observationSpace: Space<PerAgent<unknown>>;
  readonly actionSpace: Space<PerAgent<unknown>>;
  private readonly own: readonly AgentId[];
  private last: PerAgent<unknown> = {};
  private carried = 0;

  constructor(
    readonly game: MultiAgentEnv,
    readonly side: string,
    readonly opponents: Readonly<Record<string, SidePolicy>>,
  ) {
    const own = game.sides[side];
    if (!own) throw new MultiAgentContractError(`unknown side ${side}; sides are ${Object.keys(game.sides).join(', ')}`);
    for (const s of Object.keys(game.sides)) {
      if (s !== side && !opponents[s]) throw new MultiAgentContractError(`no policy for opposing side ${s}`);
    }
    this.own = own;
    const obs: Record<string, Space> = {};
    const act: Record<string, Space> = {};
    for (const a of own) {
      obs[a] = game.observationSpace(a);
      act[a] = game.actionSpace(a);
    }
    this.observationSpace = new Dict(obs) as unknown as Space<PerAgent<unknown>>;
    this.actionSpace = new Dict(act) as unknown as Space<PerAgent<unknown>>;
  }

  context(): SideContext {
    return { side: this.side, ownAgents: this.own, activeAgents: this.game.activeAgents() };
  }

  reset(opts?: ResetOptions): ResetResult<PerAgent<unknown>> {
    const r = this.game.reset(opts);
    this.last = r.observations;
    this.carried = 0;
    const skipped = this.advanceOpponents();
    if (skipped) return { observation: pick(skipped.observations, this.own), info: skipped.info };
    return { observation: pick(r.observations, this.own), info: r.info };
  }

  step(action: PerAgent<unknown>): StepResult<PerAgent<unknown>> {
    const joint: PerAgent<unknown> = { ...checkSideActions(this.game, this.side, action) };
    this.addOpponentActions(joint);
    let r = this.game.step(joint);
    this.last = r.observations;
    let reward = this.ownReward(r.rewards) + this.carried;
    this.carried = 0;
    if (!r.terminated && !r.truncated) {
      const skipped = this.advanceOpponents();
      if (skipped) {
        r = skipped;
        reward += this.carried;
        this.carried = 0;
      }
    }
    return { observation: pick(r.observations, this.own), reward, terminated: r.terminated, truncated: r.truncated, info: r.info ?? EMPTY_INFO };
  }

  getState(): EnvState {
    return this.game.getState();
  }
  setState(state: EnvState): void {
    this.game.setState(state);
  }
  snapshot(): unknown {
    return this.game.snapshot?.();
  }
  renderText(): string {
    return this.game.renderText?.() ?? '';
  }

  private ownReward(rewards: PerAgent<number>): number {
    let sum = 0;
    for (const a of this.own) sum += rewards[a] ?? 0;
    return sum;
  }

  private addOpponentActions(joint: PerAgent<unknown>): void {
    const active = this.game.activeAgents();
    for (const [s, members] of Object.entries(this.game.sides)) {
      if (s === this.side || !members.some((m) => active.includes(m))) continue;
      const policy = this.opponents[s] as SidePolicy;
      const acts = checkSideActions(this.game, s, policy(pick(this.last, members), { side: s, ownAgents: members, activeAgents: active }));
      for (const m of members) if (m in acts) joint[m] = acts[m];
    }
  }

  /** Plays the other sides' turns while none of our agents is active; null when it is already our move. */
  private advanceOpponents(): MultiStepResult | null {
    let r: MultiStepResult | null = null;
    while (!this.game.activeAgents().some((a) => this.own.includes(a))) {
      const joint: PerAgent<unknown> = {};
      this.addOpponentActions(joint);
      r = this.game.step(joint);
      this.last = r.observations;
      this.carried += this.ownReward(r.rewards);
      if (r.terminated || r.truncated) break;
    }
    return r;
  }
}

/** Plays one whole game between side policies; returns the final scores and the step count. */
export function playMatch(
  game: MultiAgentEnv,
  policies: Readonly<Record<string, SidePolicy>>,
  seed: Seed,
  maxSteps: number,
): { scores: Readonly<Record<string, number>>; steps: number; truncated: boolean } {
  let obs = game.reset({ seed }).observations;
  let steps = 0;
  for (;;) {
    const active = game.activeAgents();
    const joint: PerAgent<unknown> = {};
    for (const [s, members] of Object.entries(game.sides)) {
      if (!members.some((m) => active.includes(m))) continue;
      const policy = policies[s];
      if (!policy) throw new MultiAgentContractError(`no policy for side ${s}`);
      const acts = checkSideActions(game, s, policy(pick(obs, members), { side: s, ownAgents: members, activeAgents: active }));
      for (const m of members) if (m in acts) joint[m] = acts[m];
    }
    const r = game.step(joint);
    obs = r.observations;
    steps++;
    if (r.terminated || r.truncated || steps >= maxSteps) return { scores: game.scores(), steps, truncated: !r.terminated };
  }
}
