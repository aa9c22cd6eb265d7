/**
 * The environment contract: Gymnasium's `reset`/`step`, kept tiny and stable.
 *
 * Speed matters here (the sandbox runs millions of steps), so an environment may reuse its
 * result objects and observation buffers: a value returned by `reset` or `step` is valid until
 * the next call on the same environment. Callers copy what they keep.
 */
import type { Seed } from './rng';
import type { Space } from './spaces';

export type Info = Readonly<Record<string, unknown>>;
export const EMPTY_INFO: Info = Object.freeze({});

export interface ResetOptions {
  seed?: Seed;
  options?: Readonly<Record<string, unknown>>;
}

export interface ResetResult<O> {
  observation: O;
  info: Info;
}

export interface StepResult<O> {
  observation: O;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Info;
}

/** JSON-compatible full internal state: enough to resume or redraw an episode exactly. */
export type EnvState = unknown;

export interface Env<O = unknown, A = unknown> {
  readonly observationSpace: Space<O>;
  readonly actionSpace: Space<A>;
  reset(opts?: ResetOptions): ResetResult<O>;
  step(action: A): StepResult<O>;
  /** The full internal state (JSON-compatible). */
  getState(): EnvState;
  /** Loads a state previously produced by `getState` (or a golden trace's recorded state). */
  setState(state: EnvState): void;
  /** A small JSON picture of the world that a replay renderer draws without the environment. */
  snapshot?(): unknown;
  /** A text picture of the world (MiniGrid's ASCII rendering, for example). */
  renderText?(): string;
  /**
   * For an environment that truncates itself: the most steps the episode just reset can take
   * (MiniGrid's `max_steps`, which BabyAI derives from the instruction), or null when nothing
   * bounds it. The policy reads it as `ctx.maxEpisodeSteps`.
   */
  stepLimit?(): number | null;
  /**
   * For an environment whose limit differs by episode (BabyAI derives max_steps from the
   * instruction it draws at reset): the least and most `stepLimit()` can return, known before any
   * reset (null when nothing bounds them). Without it, `stepLimit()` before a reset is every
   * episode's limit.
   */
  stepLimitRange?(): StepLimitRange | null;
}

/** The step limits an environment's episodes can get; `rule` says how one is derived when they differ. */
export interface StepLimitRange {
  min: number;
  max: number;
  rule?: string;
}

export class EnvOrderError extends Error {
  override name = 'EnvOrderError';
}

/**
 * Gymnasium's TimeLimit and OrderEnforcing in one wrapper: `step` before `reset` and `step`
 * after the episode ended are errors, and `truncated` becomes true once `maxEpisodeSteps`
 * steps have elapsed (terminated and truncated may both be true on that step).
 */
export class EpisodeLimits<O, A> implements Env<O, A> {
  private elapsed = 0;
  private ready = false;
  private done = false;

  constructor(readonly inner: Env<O, A>, readonly maxEpisodeSteps: number | null) {}

  get observationSpace(): Space<O> {
    return this.inner.observationSpace;
  }
  get actionSpace(): Space<A> {
    return this.inner.actionSpace;
  }
  get elapsedSteps(): number {
    return this.elapsed;
  }

  /** The tighter of this wrapper's limit and the environment's own (see Env.stepLimit). */
  stepLimit(): number | null {
    const own = this.inner.stepLimit?.() ?? null;
    if (this.maxEpisodeSteps === null) return own;
    return own === null ? this.maxEpisodeSteps : Math.min(own, this.maxEpisodeSteps);
  }

  /** Every limit an episode can get, known before any reset (the tighter one, as in stepLimit); null when nothing bounds it. */
  stepLimitRange(): StepLimitRange | null {
    if (!this.inner.stepLimitRange) {
      const limit = this.stepLimit();
      return limit === null ? null : { min: limit, max: limit };
    }
    const own = this.inner.stepLimitRange();
    const cap = this.maxEpisodeSteps;
    if (own === null) return cap === null ? null : { min: cap, max: cap };
    return cap === null || own.max <= cap ? own : { min: Math.min(own.min, cap), max: cap };
  }

  reset(opts?: ResetOptions): ResetResult<O> {
    const result = this.inner.reset(opts);
    this.elapsed = 0;
    this.ready = true;
    this.done = false;
    return result;
  }

  step(action: A): StepResult<O> {
    if (!this.ready) throw new EnvOrderError('step() called before reset(): call reset() to start an episode');
    if (this.done) throw new EnvOrderError('step() called after the episode ended (terminated or truncated): call reset() first');
    const result = this.inner.step(action);
    this.elapsed++;
    if (this.maxEpisodeSteps !== null && this.elapsed >= this.maxEpisodeSteps) result.truncated = true;
    if (result.terminated || result.truncated) this.done = true;
    return result;
  }

  getState(): EnvState {
    return { elapsed: this.elapsed, inner: this.inner.getState() };
  }

  /**
   * Accepts either a state from this wrapper's `getState` or a bare inner state (as recorded in
   * golden traces). Either way the episode counts as started and not done.
   */
  setState(state: EnvState): void {
    const s = state as { elapsed?: unknown; inner?: unknown } | null;
    if (s !== null && typeof s === 'object' && 'inner' in s && typeof s.elapsed === 'number') {
      this.inner.setState(s.inner);
      this.elapsed = s.elapsed;
    } else {
      this.inner.setState(state);
    }
    this.ready = true;
    this.done = false;
  }

  /** Sets the step counter (golden replays start mid-episode). */
  setElapsedSteps(n: number): void {
    this.elapsed = n;
  }

  snapshot(): unknown {
    return this.inner.snapshot?.();
  }

  renderText(): string {
    return this.inner.renderText?.() ?? '';
  }
}
