/**
 * CaptureTheFlag-v0, generation 1: every agent of the team runs straight at the enemy flag and
 * carries it straight home. No defence, no avoidance.
 */
type Obs = ArrayLike<number>;
interface Ctx { readonly ownAgents: readonly string[]; readonly params: Readonly<Record<string, unknown>> }

const FIELDS = 7;

export class Policy {
  private readonly agents: readonly string[];
  private readonly teamSize: number;
  private readonly length: number;
  private readonly width: number;

  constructor(ctx: Ctx) {
    this.agents = ctx.ownAgents;
    this.teamSize = Number(ctx.params.teamSize ?? this.agents.length);
    this.length = Number(ctx.params.length ?? 160);
    this.width = Number(ctx.params.width ?? 80);
  }

  act(observation: Record<string, Obs>): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const agent of this.agents) {
      const o = observation[agent] as Obs;
      const flag = FIELDS * 2 * this.teamSize;
      const carrying = o[6] === 1;
      const tagged = o[5] === 1;
      const [tx, ty] = tagged ? [o[flag] as number, o[flag + 1] as number] : carrying ? [0.4, o[1] as number] : [o[flag + 3] as number, o[flag + 4] as number];
      out[agent] = this.steer(o, tx, ty);
    }
    return out;
  }

  private steer(o: Obs, tx: number, ty: number): number[] {
    const want = Math.atan2((ty - (o[1] as number)) * this.width, (tx - (o[0] as number)) * this.length);
    let diff = want - Math.atan2(o[3] as number, o[2] as number);
    while (diff > Math.PI) diff -= 2 * Math.PI;
    while (diff < -Math.PI) diff += 2 * Math.PI;
    return [1, Math.max(-1, Math.min(1, diff / 0.3))];
  }
}
