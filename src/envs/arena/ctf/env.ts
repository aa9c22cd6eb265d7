/**
 * CaptureTheFlag-v0: two teams (blue defends the left half, red the right) of unicycle agents
 * on a continuous field. An agent takes the enemy flag by reaching it, scores a capture by
 * carrying it back into its own half, and can be tagged by a defender while in the enemy half;
 * a tagged agent drops the flag (it goes home) and must return to its own flag before it can
 * play again. Simultaneous moves; deterministic given the reset seed.
 *
 * Action per agent: [speed, turn] in [-1, 1]² — speed maps to a target of 0..MAX_SPEED (reached
 * within the acceleration limit), turn to a fraction of the turn-rate limit, positive towards
 * +y in the agent's own (possibly mirrored) frame.
 * Reward per agent: +1/teamSize when its team captures, −1/teamSize when the other team does.
 */
import { EMPTY_INFO, type EnvState, type ResetOptions } from '../../core/env';
import type { AgentId, MultiAgentEnv, MultiResetResult, MultiStepResult, PerAgent } from '../../core/multiAgent';
import { Rng } from '../../core/rng';
import { Box, type Space } from '../../core/spaces';
import { AGENT_FIELDS, DT, GRAB_RADIUS, HOME_RADIUS, MAX_ACCEL, MAX_SPEED, MAX_TURN, TAG_COOLDOWN_STEPS, TAG_RADIUS, observationSize, type CtfConfig } from './rules';

type Team = 'blue' | 'red';
interface Agent {
  id: string; team: Team; x: number; y: number; h: number; v: number; tagged: boolean; carrying: boolean; cooldown: number;
}
interface Flag { team: Team; homeX: number; homeY: number; x: number; y: number; carrier: string | null }
export interface CtfEvent { step: number; kind: 'grab' | 'capture' | 'tag' | 'home'; agent: string; other?: string }

const ACT = new Box(-1, 1, [2], 'float32');

export class CaptureTheFlagEnv implements MultiAgentEnv {
  readonly agents: readonly AgentId[];
  readonly sides: Readonly<Record<string, readonly AgentId[]>>;
  private readonly obsSpace: Box;
  private state!: { agents: Agent[]; flags: Record<Team, Flag>; captures: Record<Team, number>; step: number; events: CtfEvent[] };

  constructor(readonly config: CtfConfig) {
    const ids = (t: Team) => Array.from({ length: config.teamSize }, (_, i) => `${t}_${i}`);
    this.sides = { blue: ids('blue'), red: ids('red') };
    this.agents = [...ids('blue'), ...ids('red')];
    this.obsSpace = new Box(-1, 1, [observationSize(config.teamSize)], 'float32');
    this.reset({ seed: 0 });
  }

  observationSpace(_agent: AgentId): Space {
    return this.obsSpace;
  }
  actionSpace(_agent: AgentId): Space {
    return ACT;
  }
  activeAgents(): readonly AgentId[] {
    return this.agents;
  }

  reset(opts?: ResetOptions): MultiResetResult {
    const rng = new Rng(opts?.seed ?? 0);
    const { length: L, width: W, teamSize: n } = this.config;
    const flags: Record<Team, Flag> = {
      blue: { team: 'blue', homeX: L * 0.1, homeY: W / 2, x: L * 0.1, y: W / 2, carrier: null },
      red: { team: 'red', homeX: L * 0.9, homeY: W / 2, x: L * 0.9, y: W / 2, carrier: null },
    };
    const agents: Agent[] = [];
    for (const team of ['blue', 'red'] as const) {
      for (let i = 0; i < n; i++) {
        const lane = (i + 0.5) / n;
        const y = W * (0.15 + 0.7 * lane) + rng.uniform(-W * 0.05, W * 0.05);
        const xFrac = rng.uniform(0.15, 0.3);
        const x = team === 'blue' ? L * xFrac : L * (1 - xFrac);
        const h = (team === 'blue' ? 0 : Math.PI) + rng.uniform(-0.5, 0.5);
        agents.push({ id: `${team}_${i}`, team, x, y, h, v: 0, tagged: false, carrying: false, cooldown: 0 });
      }
    }
    this.state = { agents, flags, captures: { blue: 0, red: 0 }, step: 0, events: [] };
    return { observations: this.observe(), info: EMPTY_INFO };
  }

  step(actions: PerAgent<unknown>): MultiStepResult {
    const s = this.state;
    const { length: L, width: W, teamSize: n } = this.config;
    s.events = [];
    for (const a of s.agents) {
      const act = actions[a.id] as ArrayLike<number> | undefined;
      const speedCmd = act ? clamp(act[0] as number, -1, 1) : 0;
      // Red sees the field mirrored, and a mirror flips the sense of rotation.
      const turnCmd = (act ? clamp(act[1] as number, -1, 1) : 0) * (a.team === 'red' ? -1 : 1);
      const target = ((speedCmd + 1) / 2) * MAX_SPEED;
      const dv = clamp(target - a.v, -MAX_ACCEL * DT, MAX_ACCEL * DT);
      a.v += dv;
      a.h = wrapAngle(a.h + turnCmd * MAX_TURN * DT);
      a.x = clamp(a.x + Math.cos(a.h) * a.v * DT, 0, L);
      a.y = clamp(a.y + Math.sin(a.h) * a.v * DT, 0, W);
      if (a.cooldown > 0) a.cooldown--;
    }
    const rewards: PerAgent<number> = {};
    for (const id of this.agents) rewards[id] = 0;
    const inOwnHalf = (a: Agent) => (a.team === 'blue' ? a.x < L / 2 : a.x >= L / 2);
    // Tags: a defender in its own half tags an intruder within reach.
    for (const d of s.agents) {
      if (d.tagged || d.cooldown > 0 || !inOwnHalf(d)) continue;
      let best: Agent | null = null, bestD = TAG_RADIUS;
      for (const o of s.agents) {
        if (o.team === d.team || o.tagged || inOwnHalf(o)) continue;
        const dist = Math.hypot(o.x - d.x, o.y - d.y);
        if (dist <= bestD) { best = o; bestD = dist; }
      }
      if (!best) continue;
      best.tagged = true;
      d.cooldown = TAG_COOLDOWN_STEPS;
      if (best.carrying) {
        const f = s.flags[d.team];
        f.carrier = null; f.x = f.homeX; f.y = f.homeY;
        best.carrying = false;
      }
      s.events.push({ step: s.step, kind: 'tag', agent: d.id, other: best.id });
    }
    for (const a of s.agents) {
      const own = s.flags[a.team];
      if (a.tagged) {
        if (Math.hypot(a.x - own.homeX, a.y - own.homeY) <= HOME_RADIUS) {
          a.tagged = false;
          s.events.push({ step: s.step, kind: 'home', agent: a.id });
        }
        continue;
      }
      const enemy = s.flags[a.team === 'blue' ? 'red' : 'blue'];
      if (!a.carrying && enemy.carrier === null && Math.hypot(a.x - enemy.x, a.y - enemy.y) <= GRAB_RADIUS) {
        enemy.carrier = a.id;
        a.carrying = true;
        s.events.push({ step: s.step, kind: 'grab', agent: a.id });
      }
      if (a.carrying) {
        enemy.x = a.x; enemy.y = a.y;
        if (inOwnHalf(a)) {
          a.carrying = false;
          enemy.carrier = null; enemy.x = enemy.homeX; enemy.y = enemy.homeY;
          s.captures[a.team]++;
          for (const b of s.agents) rewards[b.id] = (rewards[b.id] as number) + (b.team === a.team ? 1 : -1) / n;
          s.events.push({ step: s.step, kind: 'capture', agent: a.id });
        }
      }
    }
    s.step++;
    const terminated = s.captures.blue >= this.config.capturesToWin || s.captures.red >= this.config.capturesToWin;
    const truncated = !terminated && s.step >= this.config.maxSteps;
    return { observations: this.observe(), rewards, terminated, truncated, info: s.events.length ? { events: s.events } : EMPTY_INFO };
  }

  scores(): Readonly<Record<string, number>> {
    return { ...this.state.captures };
  }

  getState(): EnvState {
    return JSON.parse(JSON.stringify(this.state)) as unknown;
  }
  setState(state: EnvState): void {
    this.state = JSON.parse(JSON.stringify(state)) as typeof this.state;
  }

  /** What the replay draws: both teams, flags, tags this step, the score. */
  snapshot(): unknown {
    const s = this.state;
    return {
      kind: 'capture-the-flag',
      field: { length: this.config.length, width: this.config.width },
      step: s.step,
      captures: { ...s.captures },
      agents: s.agents.map((a) => ({ id: a.id, team: a.team, x: a.x, y: a.y, h: a.h, tagged: a.tagged, carrying: a.carrying })),
      flags: Object.values(s.flags).map((f) => ({ team: f.team, x: f.x, y: f.y, carrier: f.carrier })),
      events: s.events,
    };
  }

  private observe(): PerAgent<unknown> {
    const s = this.state;
    const { length: L, width: W, maxSteps } = this.config;
    const out: PerAgent<unknown> = {};
    for (const me of s.agents) {
      const mirror = me.team === 'red';
      const o = new Float64Array(this.obsSpace.size);
      const put = (i: number, a: Agent) => {
        const k = i * AGENT_FIELDS;
        o[k] = mirror ? 1 - a.x / L : a.x / L;
        o[k + 1] = a.y / W;
        o[k + 2] = mirror ? -Math.cos(a.h) : Math.cos(a.h);
        o[k + 3] = Math.sin(a.h);
        o[k + 4] = a.v / MAX_SPEED;
        o[k + 5] = a.tagged ? 1 : 0;
        o[k + 6] = a.carrying ? 1 : 0;
      };
      let i = 0;
      put(i++, me);
      for (const a of s.agents) if (a.team === me.team && a !== me) put(i++, a);
      for (const a of s.agents) if (a.team !== me.team) put(i++, a);
      const f = i * AGENT_FIELDS;
      const ownFlag = s.flags[me.team], enemyFlag = s.flags[mirror ? 'blue' : 'red'];
      o[f] = mirror ? 1 - ownFlag.x / L : ownFlag.x / L;
      o[f + 1] = ownFlag.y / W;
      o[f + 2] = ownFlag.carrier ? 1 : 0;
      o[f + 3] = mirror ? 1 - enemyFlag.x / L : enemyFlag.x / L;
      o[f + 4] = enemyFlag.y / W;
      o[f + 5] = enemyFlag.carrier ? 1 : 0;
      o[f + 6] = 1 - s.step / maxSteps;
      out[me.id] = o;
    }
    return out;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Number.isFinite(v) ? (v < lo ? lo : v > hi ? hi : v) : 0;
}
function wrapAngle(h: number): number {
  return h > Math.PI ? h - 2 * Math.PI : h < -Math.PI ? h + 2 * Math.PI : h;
}
