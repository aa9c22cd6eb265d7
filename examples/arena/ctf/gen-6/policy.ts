/**
 * CaptureTheFlag-v0, generation 6. Against two guards generation 5 drew half its games: the
 * carrier grabbed the flag, then both guards chased it into a back corner, while the teammate
 * walked home. Now the teammate of a carrier is a decoy: it goes for a point a dozen metres from
 * the opponent nearest the carrier, inside their half, so a guard that chases the nearest
 * intruder turns on the decoy instead (the look-ahead keeps it out of tagging reach).
 */
type Obs = ArrayLike<number>;
interface Ctx { readonly ownAgents: readonly string[]; readonly params: Readonly<Record<string, unknown>> }

const FIELDS = 7;
const DT = 0.25, MAX_SPEED = 6, MAX_TURN = 1.2, ACCEL = 4, TAG = 5;
const LEG1 = 8, LEG2 = 16;
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
      else if (me.carrying) out[agent] = this.plan(me, foes, (x) => -Math.max(0, x - (mid - 4)));
      else if (target) out[agent] = this.guard(me, target, ownFlag);
      else if (enemyFlag.taken) out[agent] = this.decoy(me, selves, foes);
      else out[agent] = this.plan(me, foes, (x, y) => -Math.hypot(x - enemyFlag.x, y - enemyFlag.y));
    });
    return out;
  }

  private body(o: Obs, i: number): Body {
    const k = i * FIELDS;
    return { x: (o[k] as number) * this.L, y: (o[k + 1] as number) * this.W, h: Math.atan2(o[k + 3] as number, o[k + 2] as number), v: (o[k + 4] as number) * MAX_SPEED, tagged: o[k + 5] === 1, carrying: o[k + 6] === 1 };
  }

  /** Near the opponent closest to our carrier, so that it chases us instead; home when nobody carries. */
  private decoy(me: Body, selves: Body[], foes: Body[]): number[] {
    const carrier = selves.find((b) => b.carrying);
    const chasers = foes.filter((q) => !q.tagged && q.x >= this.L / 2);
    if (!carrier || chasers.length === 0) return this.steer(me, this.L / 2 - 6, me.y);
    const c = chasers.reduce((a, b) => (dist(a, carrier) <= dist(b, carrier) ? a : b));
    return this.plan(me, foes, (x, y) => -Math.abs(Math.hypot(x - c.x, y - c.y) - LURE) - (x < this.L / 2 ? 10 : 0));
  }

  /** Close on the intruder when near; before that, cut it off on its way to our flag. */
  private guard(me: Body, t: Body, flag: { x: number; y: number }): number[] {
    const d = dist(me, t);
    const lead = Math.min(1, d / (2 * MAX_SPEED));
    let tx = t.x + Math.cos(t.h) * t.v * lead, ty = t.y + Math.sin(t.h) * t.v * lead;
    if (d > 15) {
      tx = flag.x + 0.6 * (tx - flag.x);
      ty = flag.y + 0.6 * (ty - flag.y);
    }
    return this.steer(me, Math.min(tx, this.L / 2 - 1), ty);
  }

  /** Rolls two-leg plans forward against chasing opponents; the best safe gain wins. */
  private plan(me: Body, foes: Body[], value: (x: number, y: number) => number): number[] {
    const mid = this.L / 2;
    // Far from the line no one can reach us in time: no need to look ahead.
    if (me.x < mid - 15) return this.greedy(me, value);
    const home = { x: 0.9 * this.L, y: 0.5 * this.W };
    let best: number[] = [1, 0], bestScore = -Infinity;
    for (let k = -6; k <= 6; k++) {
      const first = me.h + (k * Math.PI) / 6;
      for (const speed of [1, -1]) {
        for (let j = -2; j <= 2; j++) {
          if (speed < 0 && j !== 0) continue;
          const second = first + (j * Math.PI) / 4;
          const p = { ...me };
          const qs = foes.map((q) => ({ ...q }));
          let risk = 0, reached = -Infinity;
          for (let t = 1; t <= LEG1 + LEG2; t++) {
            move(p, t <= LEG1 ? first : second, t <= LEG1 ? speed : 1, this.L, this.W);
            // The best point along the way counts, so overshooting the flag does not look worse than waiting.
            reached = Math.max(reached, value(p.x, p.y) - 0.5 * t);
            for (const q of qs) {
              if (q.tagged) {
                move(q, Math.atan2(home.y - q.y, home.x - q.x), 1, this.L, this.W);
                if (dist(q, home) <= HOME) q.tagged = false;
                continue;
              }
              move(q, Math.atan2(p.y - q.y, p.x - q.x), 1, this.L, this.W);
              if (p.x >= mid && q.x >= mid) {
                const d = Math.hypot(p.x - q.x, p.y - q.y);
                if (d < SAFE) risk += (SAFE - d + 1) / t;
              }
            }
          }
          const edge = p.x >= mid ? Math.max(0, WALL - Math.min(p.y, this.W - p.y)) + Math.max(0, WALL - (this.L - p.x)) : 0;
          const score = reached - 200 * risk - 2 * edge;
          if (score > bestScore) { bestScore = score; best = [speed, turnTowards(me.h, first)]; }
        }
      }
    }
    return best;
  }

  /** The heading whose next two seconds gain most, with nobody to avoid. */
  private greedy(me: Body, value: (x: number, y: number) => number): number[] {
    let best = me.h, bestScore = -Infinity;
    for (let k = -6; k <= 6; k++) {
      const want = me.h + (k * Math.PI) / 6;
      const p = { ...me };
      let reached = -Infinity;
      for (let t = 1; t <= LEG1; t++) {
        move(p, want, 1, this.L, this.W);
        reached = Math.max(reached, value(p.x, p.y) - 0.5 * t);
      }
      if (reached > bestScore) { bestScore = reached; best = want; }
    }
    return [1, turnTowards(me.h, best)];
  }

  private steer(me: Body, tx: number, ty: number): number[] {
    return [1, turnTowards(me.h, Math.atan2(ty - me.y, tx - me.x))];
  }
}

function dist(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function wrap(a: number): number {
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a < -Math.PI) a += 2 * Math.PI;
  return a;
}

function turnTowards(h: number, want: number): number {
  return Math.max(-1, Math.min(1, wrap(want - h) / (MAX_TURN * DT)));
}

function move(b: Body, want: number, speed: number, L: number, W: number): void {
  const target = ((speed + 1) / 2) * MAX_SPEED;
  b.v += Math.max(-ACCEL * DT, Math.min(ACCEL * DT, target - b.v));
  b.h = wrap(b.h + Math.max(-MAX_TURN * DT, Math.min(MAX_TURN * DT, wrap(want - b.h))));
  b.x = Math.max(0, Math.min(L, b.x + Math.cos(b.h) * b.v * DT));
  b.y = Math.max(0, Math.min(W, b.y + Math.sin(b.h) * b.v * DT));
}
