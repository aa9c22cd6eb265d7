/**
 * Built-in capture-the-flag teams, weakest to strongest: random (wanders), defensive (guards
 * its flag, chases intruders, never attacks), aggressive (everyone rushes the flag) and planner
 * (one defender; attackers score candidate headings by rolling the field forward and steering
 * clear of defenders that could tag them). They read only their own observations.
 */
import type { PerAgent, SidePolicy } from '../../core/multiAgent';
import { Rng, type Seed } from '../../core/rng';
import { DT, MAX_SPEED, MAX_TURN, TAG_RADIUS, decode, type AgentView, type CtfConfig, type CtfView } from './rules';
import type { CtfOpponentName } from '../opponentNames';

export { CTF_OPPONENTS, type CtfOpponentName } from '../opponentNames';

type Steer = [number, number];

/** Action turning towards the normalised point (tx, ty) at full speed (slower in sharp turns). */
export function steerTo(me: AgentView, tx: number, ty: number, cfg: CtfConfig): Steer {
  const want = Math.atan2((ty - me.y) * cfg.width, (tx - me.x) * cfg.length);
  return steerHeading(me, want);
}

function steerHeading(me: AgentView, want: number): Steer {
  let diff = want - Math.atan2(me.sin, me.cos);
  while (diff > Math.PI) diff -= 2 * Math.PI;
  while (diff < -Math.PI) diff += 2 * Math.PI;
  const turn = Math.max(-1, Math.min(1, diff / (MAX_TURN * DT)));
  return [Math.abs(diff) > 2 ? 0 : 1, turn];
}

function goHome(v: CtfView, cfg: CtfConfig): Steer {
  return steerTo(v.self, v.ownFlag.x, v.ownFlag.y, cfg);
}

function dist(ax: number, ay: number, bx: number, by: number, cfg: CtfConfig): number {
  return Math.hypot((ax - bx) * cfg.length, (ay - by) * cfg.width);
}

/** Guard: chase the nearest intruder in our half, else hold a post between our flag and the line. */
function defend(v: CtfView, cfg: CtfConfig, post: number): Steer {
  const intruders = v.foes.filter((f) => !f.tagged && f.x < 0.5);
  if (intruders.length) {
    const target = intruders.reduce((a, b) => (dist(a.x, a.y, v.self.x, v.self.y, cfg) <= dist(b.x, b.y, v.self.x, v.self.y, cfg) ? a : b));
    // Aim a little ahead of the intruder, and never past the half line (no tagging there).
    const lead = 0.5;
    const tx = Math.min(0.49, target.x + target.cos * target.speed * MAX_SPEED * lead / cfg.length);
    const ty = target.y + target.sin * target.speed * MAX_SPEED * lead / cfg.width;
    return steerTo(v.self, tx, ty, cfg);
  }
  const px = v.ownFlag.x + (0.42 - v.ownFlag.x) * 0.6;
  const py = 0.5 + (post - 0.5) * 0.6;
  if (dist(px, py, v.self.x, v.self.y, cfg) < 2) return [-1, 0];
  return steerTo(v.self, px, py, cfg);
}

function attackDirect(v: CtfView, cfg: CtfConfig): Steer {
  if (v.self.carrying) return steerTo(v.self, 0.4, v.self.y, cfg);
  if (v.enemyFlag.taken) return steerTo(v.self, 0.55, v.enemyFlag.y, cfg);
  return steerTo(v.self, v.enemyFlag.x, v.enemyFlag.y, cfg);
}

/** Rolls each candidate heading forward and keeps the one that gains most while staying untagged. */
function attackPlanned(v: CtfView, cfg: CtfConfig): Steer {
  const me = v.self;
  const goal = me.carrying ? { x: 0.4, y: me.y } : v.enemyFlag.taken ? { x: 0.55, y: v.enemyFlag.y } : { x: v.enemyFlag.x, y: v.enemyFlag.y };
  const threats = v.foes.filter((f) => !f.tagged);
  const heading = Math.atan2(me.sin, me.cos);
  const horizon = 12; // steps of DT: three seconds
  let best = heading, bestScore = -Infinity;
  for (let k = -8; k <= 8; k++) {
    const h0 = heading + (k * Math.PI) / 8;
    let x = me.x * cfg.length, y = me.y * cfg.width, h = heading, sp = me.speed * MAX_SPEED;
    let risk = 0;
    for (let t = 1; t <= horizon; t++) {
      let diff = h0 - h;
      while (diff > Math.PI) diff -= 2 * Math.PI;
      while (diff < -Math.PI) diff += 2 * Math.PI;
      h += Math.max(-MAX_TURN * DT, Math.min(MAX_TURN * DT, diff));
      sp = Math.min(MAX_SPEED, sp + 4 * DT);
      x = Math.max(0, Math.min(cfg.length, x + Math.cos(h) * sp * DT));
      y = Math.max(0, Math.min(cfg.width, y + Math.sin(h) * sp * DT));
      if (x < cfg.length / 2) continue; // our half: nobody can tag us here
      for (const f of threats) {
        if (f.x < 0.5) continue;
        // A defender closes at full speed: where could it be by step t?
        const reach = MAX_SPEED * DT * t + TAG_RADIUS + 1.5;
        const d = Math.hypot(f.x * cfg.length - x, f.y * cfg.width - y);
        if (d < reach) risk += (reach - d) / reach / t;
      }
    }
    const progress = -Math.hypot(goal.x * cfg.length - x, goal.y * cfg.width - y);
    const score = progress - 40 * risk;
    if (score > bestScore) { bestScore = score; best = h0; }
  }
  return steerHeading(me, best);
}

export function ctfOpponent(name: CtfOpponentName, cfg: CtfConfig, seed: Seed = 0): SidePolicy {
  const rng = new Rng(seed);
  const wander = new Map<string, number>();
  return (observations, ctx) => {
    const out: PerAgent<unknown> = {};
    ctx.ownAgents.forEach((agent, idx) => {
      const v = decode(observations[agent] as ArrayLike<number>, cfg.teamSize);
      const post = cfg.teamSize === 1 ? 0.5 : idx / (cfg.teamSize - 1);
      let act: Steer;
      if (v.self.tagged) act = goHome(v, cfg);
      else if (name === 'random') {
        const turn = Math.max(-1, Math.min(1, (wander.get(agent) ?? 0) + rng.uniform(-0.4, 0.4)));
        wander.set(agent, turn);
        act = [rng.uniform(-1, 1), turn];
      } else if (name === 'defensive') act = defend(v, cfg, post);
      else if (name === 'aggressive') act = attackDirect(v, cfg);
      else {
        // The first agent guards only while someone is in our half; otherwise it attacks too.
        const threatened = v.foes.some((f) => !f.tagged && f.x < 0.55);
        act = idx === 0 && !v.self.carrying && threatened ? defend(v, cfg, 0.5) : attackPlanned(v, cfg);
      }
      out[agent] = Float64Array.of(act[0], act[1]);
    });
    return out;
  };
}
