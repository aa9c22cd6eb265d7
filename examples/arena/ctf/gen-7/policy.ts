/**
 * CaptureTheFlag-v0, generation 7. Generation 6 beat every built-in team in process, but in the
 * arena's sandbox its games ran past the 30 s game limit: the look-ahead rolled 78 plans a step
 * for each agent. Same tactics, a tenth of the work: a plan is kept for a few steps unless an
 * opponent is close, the second leg has three headings instead of five, and opponents too far
 * away to matter within the horizon are left out of the roll-out.
 */
// Module-scope copies of Math's functions: a global looked up in the sandbox's realm costs far
// more than a local binding, and the look-ahead calls these thousands of times a step.
const { cos, sin, atan2, hypot, max, min, abs, PI } = Math;
const INF = Number.MAX_VALUE;
type Obs = ArrayLike<number>;
interface Ctx { readonly ownAgents: readonly string[]; readonly params: Readonly<Record<string, unknown>> }

const FIELDS = 7;
const DT = 0.25, MAX_SPEED = 6, MAX_TURN = 1.2, ACCEL = 4, TAG = 5;
const LEG1 = 8, LEG2 = 16;
/** Steps a plan is kept while no opponent is within CLOSE metres. */
const KEEP = 3, CLOSE = 20;
/** Farthest an opponent can matter: both running at full speed for the whole horizon, plus reach. */
const REACH = 2 * (LEG1 + LEG2) * 6 * 0.25 + 8;
const WALL = 10;
/** A tagged agent is back in play this close to its flag's home (the game's rule). */
const HOME = 6;
/** How far from the opponent it lures a decoy keeps. */
const LURE = 12;
const SAFE = TAG + 3;

interface Body { x: number; y: number; h: number; v: number; tagged: boolean; carrying: boolean }

export class Policy {
  private readonly agents: readonly string[];
  private readonly n: number;
  private readonly L: number;
  private readonly W: number;
  private readonly kept = new Map<string, { want: number; speed: number; left: number }>();

  constructor(ctx: Ctx) {
    this.agents = ctx.ownAgents;
    this.n = Number(ctx.params.teamSize ?? this.agents.length);
    this.L = Number(ctx.params.length ?? 160);
    this.W = Number(ctx.params.width ?? 80);
  }

  act(observation: Record<string, Obs>): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    const mid = this.L / 2;
    const selves = this.agents.map((a) => this.body(observation[a] as Obs, 0));
    const first = observation[this.agents[0] as string] as Obs;
    const foes = Array.from({ length: this.n }, (_, i) => this.body(first, this.n + i));
    const f = FIELDS * 2 * this.n;
    const ownFlag = { x: (first[f] as number) * this.L, y: (first[f + 1] as number) * this.W };
    const enemyFlag = { x: (first[f + 3] as number) * this.L, y: (first[f + 4] as number) * this.W, taken: first[f + 5] === 1 };
    // Each intruder, nearest our flag first, gets the nearest agent free to turn back.
    const guarding = new Map<number, Body>();
    const intruders = foes.filter((q) => !q.tagged && q.x < mid + 10).sort((a, b) => dist(a, ownFlag) - dist(b, ownFlag));
    for (const q of intruders) {
      let pick = -1;
      selves.forEach((me, i) => {
        if (me.tagged || me.carrying || guarding.has(i) || me.x > mid + 10) return;
        if (pick < 0 || dist(me, q) < dist(selves[pick] as Body, q)) pick = i;
      });
      if (pick >= 0) guarding.set(pick, q);
    }
    this.agents.forEach((agent, idx) => {
      const me = selves[idx] as Body;
      const target = guarding.get(idx);
      if (me.tagged) out[agent] = this.steer(me, ownFlag.x, ownFlag.y);
      else if (me.carrying) out[agent] = this.plan(agent, me, foes, (x) => -max(0, x - (mid - 4)));
      else if (target) out[agent] = this.guard(me, target, ownFlag);
      else if (enemyFlag.taken) out[agent] = this.decoy(agent, me, selves, foes);
      else out[agent] = this.plan(agent, me, foes, (x, y) => -hypot(x - enemyFlag.x, y - enemyFlag.y));
    });
    return out;
  }

  private body(o: Obs, i: number): Body {
    const k = i * FIELDS;
    return { x: (o[k] as number) * this.L, y: (o[k + 1] as number) * this.W, h: atan2(o[k + 3] as number, o[k + 2] as number), v: (o[k + 4] as number) * MAX_SPEED, tagged: o[k + 5] === 1, carrying: o[k + 6] === 1 };
  }

  /** Near the opponent closest to our carrier, so that it chases us instead; home when nobody carries. */
  private decoy(agent: string, me: Body, selves: Body[], foes: Body[]): number[] {
    const carrier = selves.find((b) => b.carrying);
    const chasers = foes.filter((q) => !q.tagged && q.x >= this.L / 2);
    if (!carrier || chasers.length === 0) return this.steer(me, this.L / 2 - 6, me.y);
    const c = chasers.reduce((a, b) => (dist(a, carrier) <= dist(b, carrier) ? a : b));
    return this.plan(agent, me, foes, (x, y) => -abs(hypot(x - c.x, y - c.y) - LURE) - (x < this.L / 2 ? 10 : 0));
  }

  /** Close on the intruder when near; before that, cut it off on its way to our flag. */
  private guard(me: Body, t: Body, flag: { x: number; y: number }): number[] {
    const d = dist(me, t);
    const lead = min(1, d / (2 * MAX_SPEED));
    let tx = t.x + cos(t.h) * t.v * lead, ty = t.y + sin(t.h) * t.v * lead;
    if (d > 15) {
      tx = flag.x + 0.6 * (tx - flag.x);
      ty = flag.y + 0.6 * (ty - flag.y);
    }
    return this.steer(me, min(tx, this.L / 2 - 1), ty);
  }

  /** Rolls two-leg plans forward against chasing opponents; the best safe gain wins. */
  private plan(agent: string, me: Body, foes: Body[], value: (x: number, y: number) => number): number[] {
    const mid = this.L / 2;
    // Far from the line no one can reach us in time: no need to look ahead.
    if (me.x < mid - 15) {
      this.kept.delete(agent);
      return this.greedy(me, value);
    }
    const home = { x: 0.9 * this.L, y: 0.5 * this.W };
    const kept = this.kept.get(agent);
    if (kept && kept.left > 0 && !foes.some((q) => !q.tagged && dist(q, me) < CLOSE)) {
      kept.left--;
      return [kept.speed, turnTowards(me.h, kept.want)];
    }
    const near = foes.filter((q) => (q.tagged ? dist(q, home) < HOME + REACH / 2 : dist(q, me) < REACH));
    // Roll-outs run on flat arrays ([x, y, heading, speed, tagged] per body; ours first): no
    // objects per step, so the garbage collector stays out of the hot loop.
    const n = near.length + 1;
    const start = new Float64Array(5 * n);
    [me, ...near].forEach((b, i) => start.set([b.x, b.y, b.h, b.v, b.tagged ? 1 : 0], 5 * i));
    const sim = new Float64Array(5 * n);
    let best: number[] = [1, 0], bestScore = -INF, bestWant = me.h, bestSpeed = 1;
    for (let k = -6; k <= 6; k++) {
      const first = me.h + (k * PI) / 6;
      for (const speed of [1, -1]) {
        for (let j = -1; j <= 1; j++) {
          if (speed < 0 && j !== 0) continue;
          const second = first + (j * PI) / 4;
          sim.set(start);
          let risk = 0, reached = -INF;
          for (let t = 1; t <= LEG1 + LEG2; t++) {
            move(sim, 0, t <= LEG1 ? first : second, t <= LEG1 ? speed : 1, this.L, this.W);
            const px = sim[0] as number, py = sim[1] as number;
            // The best point along the way counts, so overshooting the flag does not look worse than waiting.
            reached = max(reached, value(px, py) - 0.5 * t);
            for (let i = 5; i < sim.length; i += 5) {
              const qx = sim[i] as number, qy = sim[i + 1] as number;
              if (sim[i + 4] === 1) {
                move(sim, i, atan2(home.y - qy, home.x - qx), 1, this.L, this.W);
                if (hypot((sim[i] as number) - home.x, (sim[i + 1] as number) - home.y) <= HOME) sim[i + 4] = 0;
                continue;
              }
              move(sim, i, atan2(py - qy, px - qx), 1, this.L, this.W);
              if (px >= mid && (sim[i] as number) >= mid) {
                const d = hypot(px - (sim[i] as number), py - (sim[i + 1] as number));
                if (d < SAFE) risk += (SAFE - d + 1) / t;
              }
            }
          }
          const ex = sim[0] as number, ey = sim[1] as number;
          const edge = ex >= mid ? max(0, WALL - min(ey, this.W - ey)) + max(0, WALL - (this.L - ex)) : 0;
          const score = reached - 200 * risk - 2 * edge;
          if (score > bestScore) { bestScore = score; best = [speed, turnTowards(me.h, first)]; bestWant = first; bestSpeed = speed; }
        }
      }
    }
    this.kept.set(agent, { want: bestWant, speed: bestSpeed, left: KEEP - 1 });
    return best;
  }

  /** The heading whose next two seconds gain most, with nobody to avoid. */
  private greedy(me: Body, value: (x: number, y: number) => number): number[] {
    let best = me.h, bestScore = -INF;
    const sim = new Float64Array(5);
    for (let k = -6; k <= 6; k++) {
      const want = me.h + (k * PI) / 6;
      sim.set([me.x, me.y, me.h, me.v, 0]);
      let reached = -INF;
      for (let t = 1; t <= LEG1; t++) {
        move(sim, 0, want, 1, this.L, this.W);
        reached = max(reached, value(sim[0] as number, sim[1] as number) - 0.5 * t);
      }
      if (reached > bestScore) { bestScore = reached; best = want; }
    }
    return [1, turnTowards(me.h, best)];
  }

  private steer(me: Body, tx: number, ty: number): number[] {
    return [1, turnTowards(me.h, atan2(ty - me.y, tx - me.x))];
  }
}

function dist(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return hypot(a.x - b.x, a.y - b.y);
}

function wrap(a: number): number {
  while (a > PI) a -= 2 * PI;
  while (a < -PI) a += 2 * PI;
  return a;
}

function turnTowards(h: number, want: number): number {
  return max(-1, min(1, wrap(want - h) / (MAX_TURN * DT)));
}

/** One step of the game's unicycle model for the body at `i` of a flat [x, y, heading, speed, tagged] array. */
function move(b: Float64Array, i: number, want: number, speed: number, L: number, W: number): void {
  const target = ((speed + 1) / 2) * MAX_SPEED;
  const v = (b[i + 3] as number) + max(-ACCEL * DT, min(ACCEL * DT, target - (b[i + 3] as number)));
  const h = wrap((b[i + 2] as number) + max(-MAX_TURN * DT, min(MAX_TURN * DT, wrap(want - (b[i + 2] as number)))));
  b[i + 3] = v;
  b[i + 2] = h;
  b[i] = max(0, min(L, (b[i] as number) + cos(h) * v * DT));
  b[i + 1] = max(0, min(W, (b[i + 1] as number) + sin(h) * v * DT));
}
