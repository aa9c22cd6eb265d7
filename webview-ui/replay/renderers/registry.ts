/**
 * Scene renderers, one per environment family (EnvDefinition.family). A renderer is part of a
 * family's contract: it draws the family's `env.snapshot()` objects. New families register their
 * own; an unknown family falls back to a renderer that prints the snapshot.
 */
import type { ThemeColors } from '../../shared/theme';

export interface SceneContext {
  ctx: CanvasRenderingContext2D;
  /** CSS pixels (the context is already scaled for devicePixelRatio). */
  width: number;
  height: number;
  theme: ThemeColors;
}

export interface SceneFrame {
  /** 0 = right after reset; k = after step k. */
  index: number;
  /** The action that led to this frame (undefined for frame 0). */
  action: unknown;
  reward: number | undefined;
}

export interface SceneRenderer {
  readonly family: string;
  /** Simulated steps per second at 1× (the environment's own time step). */
  readonly stepsPerSecond: number;
  /** Width / height of the scene. */
  readonly aspect: number;
  /** Draws one frame; `snapshot` is untrusted JSON and may not match the expected shape. */
  draw(scene: SceneContext, snapshot: unknown, frame: SceneFrame): void;
  /** One line describing the snapshot for screen readers. */
  describe(snapshot: unknown): string;
  /**
   * A drawable snapshot from what the policy observed, for trajectories recorded without
   * snapshots (the observation before step k+1 is the state after step k). Null when the
   * observation does not carry enough.
   */
  fromObservation?(observation: unknown, action: unknown): unknown;
  /**
   * Draws what the policy observed, when that is a picture of its own (MiniGrid's 7×7
   * egocentric view). False when the observation does not have that shape.
   */
  drawObservation?(scene: SceneContext, observation: unknown): boolean;
  /** Width / height of drawObservation's picture. */
  readonly observationAspect?: number;
  /**
   * Called once with a side's snapshots (frame 0 first) before any of them is drawn, for
   * renderers whose later snapshots depend on the first (MuJoCo's scene comes only with it).
   */
  prepare?(snapshots: readonly unknown[]): void;
}

const renderers = new Map<string, SceneRenderer>();

export function registerRenderer(r: SceneRenderer): void {
  renderers.set(r.family, r);
}

/** Exact family first, then its parent (`classic/cartpole` → `classic`), then the fallback. */
export function rendererFor(family: string, fallback: SceneRenderer): SceneRenderer {
  let f = family;
  while (f !== '') {
    const r = renderers.get(f);
    if (r !== undefined) return r;
    const cut = f.lastIndexOf('/');
    f = cut < 0 ? '' : f.slice(0, cut);
  }
  return fallback;
}

export function registeredFamilies(): string[] {
  return [...renderers.keys()].sort();
}

/** Reads a finite number field from an untrusted snapshot. */
export function numField(o: unknown, key: string): number | null {
  if (typeof o !== 'object' || o === null) return null;
  const v = (o as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Reads a number array (a JSON'd Box observation) of at least `n` finite numbers. */
export function numbers(o: unknown, n: number): number[] | null {
  if (!Array.isArray(o) || o.length < n) return null;
  for (let i = 0; i < n; i++) if (typeof o[i] !== 'number' || !Number.isFinite(o[i])) return null;
  return o as number[];
}

export function drawMessage(s: SceneContext, text: string): void {
  s.ctx.fillStyle = s.theme.muted;
  s.ctx.font = `13px ${s.theme.font}`;
  s.ctx.textAlign = 'center';
  s.ctx.textBaseline = 'middle';
  s.ctx.fillText(text, s.width / 2, s.height / 2);
  s.ctx.textAlign = 'start';
}
