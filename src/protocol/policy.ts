/**
 * The policy ABI shared by the sandbox (which calls policies) and the generated workspace
 * declarations (which type them). See docs/DESIGN.md, "Policy ABI".
 */
import type { SpaceDescription } from './spaces';

export type PublicParamValue = number | boolean | string;

/** What `new Policy(ctx)` receives. Everything here is public: no hidden seed material. */
export interface PolicyContext {
  readonly envId: string;
  readonly observationSpace: SpaceDescription;
  readonly actionSpace: SpaceDescription;
  /** The environment's public parameters, defaults filled in. */
  readonly params: Readonly<Record<string, PublicParamValue>>;
  readonly maxEpisodeSteps: number | null;
  readonly rewardRange: readonly [number, number];
  /** Seeds the policy realm's `Math.random`; also available for the policy's own generators. */
  readonly seed: number;
  /** Arena games only: the side this policy plays in this game, and its own agents. */
  readonly side?: string;
  readonly ownAgents?: readonly string[];
}
