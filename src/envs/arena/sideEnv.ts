/**
 * An arena game seen from one side as a plain `Env`, the form the sandbox runs: the policy under
 * test plays `side`, the other side is an opponent policy made afresh at every reset (seeded
 * from the reset seed, so a game is reproducible). A failing opponent (it throws, or returns an
 * action outside its space) ends the game at once: the opponent's side loses it, and the last
 * step's info says so (`opponentFailure`). The final step's info carries `scores` per side.
 */
import { EMPTY_INFO, type Env, type EnvState, type ResetOptions, type ResetResult, type StepResult } from '../core/env';
import { checkSideActions, SideView, type MultiAgentEnv, type PerAgent, type SideContext, type SidePolicy } from '../core/multiAgent';
import { Dict, type Space } from '../core/spaces';

/** Makes the opponent's policy for one game. */
export type OpponentFactory = (seed: number) => SidePolicy;

export class OpponentFailure extends Error {
  override name = 'OpponentFailure';
}

/** Derives the opponent's seed from the game's reset seed (a fixed mix, distinct from the policy seed). */
export function opponentSeed(resetSeed: number): number {
  return (Math.imul(resetSeed ^ 0x5bd1e995, 0x27d4eb2d) ^ 0x9e3779b9) >>> 0;
}

export class ArenaSideEnv implements Env<PerAgent<unknown>, PerAgent<unknown>> {
  readonly observationSpace: Space<PerAgent<unknown>>;
  readonly actionSpace: Space<PerAgent<unknown>>;
  private readonly view: SideView;
  private opponent: SidePolicy | null = null;
  private failure: string | null = null;
  private lastObservation: PerAgent<unknown> = {};

  constructor(
    readonly game: MultiAgentEnv,
    readonly side: string,
    private makeOpponent: OpponentFactory,
  ) {
    const other = Object.keys(game.sides).find((s) => s !== side) as string;
    // The view calls this proxy; it checks the opponent's actions itself, so an invalid one is the opponent's failure.
    const proxy: SidePolicy = (obs, ctx) => this.opponentActs(other, obs, ctx);
    this.view = new SideView(game, side, { [other]: proxy });
    this.observationSpace = new PerAgentDict((this.view.observationSpace as unknown as Dict).spaces, false) as unknown as Space<PerAgent<unknown>>;
    this.actionSpace = new PerAgentDict((this.view.actionSpace as unknown as Dict).spaces, true) as unknown as Space<PerAgent<unknown>>;
  }

  /**
   * Plays the other side with `factory` instead of the roster opponent the parameters named (a
   * sandbox worker attaches a champion's policy realm this way).
   */
  useOpponent(factory: OpponentFactory): void {
    this.makeOpponent = factory;
  }

  /** The other side, its agents and their spaces: what an opponent's own policy context holds. */
  opponentSide(): { side: string; agents: readonly string[]; observationSpace: Dict; actionSpace: Dict } {
    const side = Object.keys(this.game.sides).find((s) => s !== this.side) as string;
    const agents = this.game.sides[side] ?? [];
    const obs: Record<string, Space> = {};
    const act: Record<string, Space> = {};
    for (const a of agents) {
      obs[a] = this.game.observationSpace(a);
      act[a] = this.game.actionSpace(a);
    }
    return { side, agents, observationSpace: new Dict(obs), actionSpace: new Dict(act) };
  }

  /** The side's own agents, for the policy's context. */
  get ownAgents(): readonly string[] {
    return this.game.sides[this.side] ?? [];
  }

  reset(opts?: ResetOptions): ResetResult<PerAgent<unknown>> {
    const seed = typeof opts?.seed === 'number' ? opts.seed : 0;
    this.opponent = this.makeOpponent(opponentSeed(seed));
    this.failure = null;
    try {
      const r = this.view.reset(opts);
      this.lastObservation = r.observation;
      return r;
    } catch (e) {
      if (!(e instanceof OpponentFailure)) throw e;
      // The opponent failed on its opening move: the game ends with the submission's first step.
      this.failure = e.message;
      this.lastObservation = pickOwn(this.game.reset(opts).observations, this.ownAgents);
      return { observation: this.lastObservation, info: EMPTY_INFO };
    }
  }

  step(action: PerAgent<unknown>): StepResult<PerAgent<unknown>> {
    if (this.failure !== null) return this.endByFailure();
    try {
      const r = this.view.step(action);
      this.lastObservation = r.observation;
      if (r.terminated || r.truncated) return { ...r, info: { ...r.info, scores: { ...this.game.scores() } } };
      return r;
    } catch (e) {
      if (!(e instanceof OpponentFailure)) throw e;
      this.failure = e.message;
      return this.endByFailure();
    }
  }

  getState(): EnvState {
    return this.view.getState();
  }
  setState(state: EnvState): void {
    this.view.setState(state);
  }
  snapshot(): unknown {
    return this.view.snapshot();
  }
  renderText(): string {
    return this.view.renderText();
  }

  private endByFailure(): StepResult<PerAgent<unknown>> {
    return { observation: this.lastObservation, reward: 0, terminated: true, truncated: false, info: { opponentFailure: this.failure, scores: { ...this.game.scores() } } };
  }

  private opponentActs(side: string, obs: PerAgent<unknown>, ctx: SideContext): PerAgent<unknown> {
    const policy = this.opponent;
    if (!policy) throw new OpponentFailure('the opponent was not made: reset() first');
    try {
      return checkSideActions(this.game, side, policy(obs, ctx));
    } catch (e) {
      if (e instanceof OpponentFailure) throw e;
      throw new OpponentFailure(e instanceof Error ? e.message : String(e));
    }
  }
}

/**
 * A Dict keyed by agent id whose generated TypeScript type is a record over any agent id: the
 * same policy plays either side, whose agents have other ids.
 */
class PerAgentDict extends Dict {
  constructor(spaces: Readonly<Record<string, Space>>, private readonly isAction: boolean) {
    super({ ...spaces });
  }
  override tsType(): string {
    const first = Object.values(this.spaces)[0];
    const kind = first?.describe().type;
    // Actions are checked when returned: any number (Discrete) or array-like (Box) is accepted to be checked.
    const element = !first ? 'unknown' : this.isAction && kind === 'Box' ? 'ArrayLike<number>' : this.isAction && kind === 'Discrete' ? 'number' : first.tsType();
    return this.isAction ? `Record<string, ${element}>` : `Readonly<Record<string, ${element}>>`;
  }
}

function pickOwn(all: PerAgent<unknown>, own: readonly string[]): PerAgent<unknown> {
  const out: PerAgent<unknown> = {};
  for (const a of own) out[a] = all[a];
  return out;
}
