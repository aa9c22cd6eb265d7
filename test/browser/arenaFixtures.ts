/**
 * Arena fixtures from the real games: matches played by the built-in opponents, recorded step by
 * step in the declared match formats (src/protocol/arena.ts `ctf-match/1`,
 * `connect-four-match/1`), and a small arena run's documents (summaries, pool, ratings) whose
 * numbers are consistent with each other. Used by the browser tests, the screenshots and the
 * unit tests of the host's match conversion.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { captureTheFlagGame, connectFourGame, type ArenaGame } from '../../src/envs/arena';
import { checkSideActions, type PerAgent } from '../../src/envs/core/multiAgent';
import {
  ARENA_POOL_FORMAT, ARENA_RATINGS_FORMAT, ARENA_SUMMARY_FORMAT,
  type ArenaGame as ArenaGameRecord, type ArenaPoolFile, type ArenaRatingsFile, type ArenaSubmissionSummary, type OpponentResult,
} from '../../src/protocol/arena';
import { CONNECT_FOUR_MATCH_FORMAT, CTF_MATCH_FORMAT, type MatchHeader, type MatchTrajectory } from '../../src/protocol/arenaMatch';

interface CtfSnap {
  step: number;
  captures: Record<string, number>;
  agents: { id: string; team: string; x: number; y: number; h: number; tagged: boolean; carrying: boolean }[];
  flags: { team: string; x: number; y: number; carrier: string | null }[];
  events: { kind: 'grab' | 'capture' | 'tag' | 'home'; agent: string; other?: string }[];
}
interface C4Snap { board: number[]; lastMove: number | null }

/** Plays one game of `game` between two built-in opponents and records it as the runner's match file would. */
export function recordMatch(game: ArenaGame, o: { submission: number; game: number; seed: number; own: string; opponent: string; submissionSide?: string; stage?: MatchHeader['stage'] }): MatchTrajectory {
  const env = game.create();
  const [a, b] = game.sides;
  const ownSide = o.submissionSide ?? a;
  const oppSide = ownSide === a ? b : a;
  const policies = { [ownSide]: game.opponent(o.own, o.seed), [oppSide]: game.opponent(o.opponent, o.seed + 1) };
  const ctf = game.id === 'CaptureTheFlag-v0';
  const cfg = ctf ? (env as unknown as { config: { length: number; width: number; maxSteps: number } }).config : null;
  const header: MatchHeader = {
    type: 'header', format: ctf ? CTF_MATCH_FORMAT : CONNECT_FOUR_MATCH_FORMAT, envId: game.id, params: cfg ? { maxSteps: cfg.maxSteps } : {},
    submission: o.submission, game: o.game, stage: o.stage ?? 'screen', seed: o.seed, sides: [a, b], submissionSide: ownSide,
    opponent: o.opponent, opponentKind: 'built-in', agents: [...env.agents],
    ...(cfg ? { field: { length: cfg.length, width: cfg.width } } : { rows: 6, cols: 7 }),
  };
  const steps: MatchTrajectory['steps'] = [];
  const ctfStep = (s: CtfSnap): MatchTrajectory['steps'][number] => ({
    type: 'step', t: s.step,
    agents: s.agents.map((x) => [x.x, x.y, x.h, x.tagged ? 1 : 0, x.carrying ? 1 : 0] as [number, number, number, number, number]),
    flags: Object.fromEntries(s.flags.map((f) => [f.team, [f.x, f.y, f.carrier] as [number, number, string | null]])),
    captures: { ...s.captures },
    ...(s.events.length ? { events: s.events } : {}),
  });
  let obs = env.reset({ seed: o.seed }).observations;
  if (ctf) {
    const s0 = env.snapshot?.() as CtfSnap;
    header.flagHomes = Object.fromEntries(s0.flags.map((f) => [f.team, [f.x, f.y] as [number, number]]));
    steps.push(ctfStep(s0));
  }
  let n = 0;
  for (;;) {
    const active = env.activeAgents();
    const joint: PerAgent<unknown> = {};
    let mover = '';
    for (const [side, members] of Object.entries(env.sides)) {
      if (!members.some((m) => active.includes(m))) continue;
      mover = side;
      const pick: PerAgent<unknown> = {};
      for (const m of members) pick[m] = obs[m];
      const acts = checkSideActions(env, side, policies[side]!(pick, { side, ownAgents: members, activeAgents: active }));
      Object.assign(joint, acts);
    }
    const r = env.step(joint);
    obs = r.observations;
    n++;
    if (ctf) steps.push(ctfStep(env.snapshot?.() as CtfSnap));
    else steps.push({ type: 'step', t: n, mover, column: joint[mover] as number });
    if (r.terminated || r.truncated || n >= game.maxSteps) {
      const scores = env.scores();
      const own = scores[ownSide] ?? 0, opp = scores[oppSide] ?? 0;
      const snap = ctf ? null : (env.snapshot?.() as C4Snap);
      return {
        header, steps,
        outcome: { type: 'outcome', outcome: own > opp ? 'W' : own === opp ? 'D' : 'L', scores: { ...scores }, steps: n, truncated: !r.terminated, ...(snap ? { board: snap.board } : {}) },
      };
    }
  }
}

export function matchLines(m: MatchTrajectory): string {
  return [m.header, ...m.steps, ...(m.outcome ? [m.outcome] : [])].map((l) => JSON.stringify(l)).join('\n');
}

/** A capture-the-flag match with at least one tag (the defensive side tags an aggressive raider). */
export function ctfMatchWithTag(submission = 1, game = 0, seed = 7, own = 'defensive'): MatchTrajectory {
  return recordMatch(captureTheFlagGame(), { submission, game, seed, own, opponent: 'aggressive' });
}

export function connectFourMatch(submission = 1, game = 0, seed = 3, own = 'minimax', opponent = 'aggressive'): MatchTrajectory {
  return recordMatch(connectFourGame(), { submission, game, seed, own, opponent });
}

/** A consistent small arena run: `n` submissions against the built-in pool plus a promoted champion. */
export function arenaRunFixture(n = 5): { submissions: ArenaSubmissionSummary[]; pool: ArenaPoolFile; ratings: ArenaRatingsFile } {
  const opponents = ['random', 'defensive', 'aggressive', 'planner'];
  // Win probability per submission × opponent, as fixed numbers so the matrix is predictable.
  const strength = [0.3, 0.45, 0.6, 0.75, 0.9, 0.5, 0.65, 0.8];
  const hardness: Record<string, number> = { random: 0.35, defensive: 0.1, aggressive: 0.05, planner: -0.25, 'champion-1': -0.3 };
  const submissions: ArenaSubmissionSummary[] = [];
  const history: ArenaRatingsFile['history'] = [];
  let game = 0;
  let used = 0;
  const total = 400;
  const mu: Record<string, number> = {};
  for (let s = 1; s <= n; s++) {
    const pool = s > 3 ? [...opponents, 'champion-1'] : opponents;
    const games: ArenaGameRecord[] = [];
    const per: OpponentResult[] = [];
    for (const opp of pool) {
      const p = Math.max(0, Math.min(1, (strength[s - 1] ?? 0.5) + (hardness[opp] ?? 0)));
      const wins = Math.round(p * 3);
      const r: OpponentResult = { opponent: opp, kind: opp.startsWith('champion') ? 'champion' : 'built-in', W: wins, D: 0, L: 3 - wins, games: 3, points: wins, errors: [] };
      per.push(r);
      for (let i = 0; i < 3; i++) {
        const outcome = i < wins ? 'W' : 'L';
        games.push({ game, stage: 'screen', opponent: opp, side: game % 2 === 0 ? 'blue' : 'red', seed: 1000 + opponents.concat('champion-1').indexOf(opp) * 10 + i, outcome, score: { own: outcome === 'W' ? 1 : 0, opponent: outcome === 'W' ? 0 : 1 }, steps: 200 + i, trajectory: `feedback/submit-${String(s).padStart(4, '0')}/games/game-${String(game).padStart(5, '0')}.jsonl` });
        game++;
        used++;
        mu[`submission-${s}`] = (mu[`submission-${s}`] ?? 25) + (outcome === 'W' ? 0.8 : -0.8);
        mu[opp] = (mu[opp] ?? 25) + (outcome === 'W' ? -0.6 : 0.6);
        for (const id of [`submission-${s}`, opp]) {
          const sigma = 8.33 / Math.sqrt(1 + used / 10);
          history.push({ game: used, id, mu: mu[id]!, sigma, ordinal: mu[id]! - 3 * sigma });
        }
      }
    }
    const points = per.reduce((a, r) => a + r.points, 0);
    const gamesN = per.reduce((a, r) => a + r.games, 0);
    submissions.push({
      format: ARENA_SUMMARY_FORMAT, submission: s, checkpoint: `sha256:${String(s).repeat(8)}`, envId: 'CaptureTheFlag-v0', createdAt: new Date(Date.UTC(2026, 11, 4, 18, s)).toISOString(),
      stage: points / gamesN >= 0.5 ? 'deep' : 'screen', reason: points / gamesN >= 0.5 ? 'passed the screen' : 'screen points rate below the pass mark',
      screen: { games: gamesN, pointsRate: points / gamesN, winRate: points / gamesN, perOpponent: per, passMark: 0.5 },
      deep: null, promoted: s === 3 ? 'champion-1' : null, gamesCharged: gamesN, budget: { total, used, remaining: total - used },
      weights: Object.fromEntries(pool.map((o) => [o, o === 'planner' ? 2 : 1])), games, typeErrors: 0,
    });
  }
  const sigmaNow = 8.33 / Math.sqrt(1 + used / 10);
  const poolFile: ArenaPoolFile = {
    format: ARENA_POOL_FORMAT,
    entries: [
      ...opponents.filter((o) => o !== 'random').map((o) => ({ id: o, kind: 'built-in' as const, pinned: o === 'planner', weight: o === 'planner' ? 2 : 1, winRate: 0.5 + (hardness[o] ?? 0), games: n * 3, joinedAtGame: 0 })),
      { id: 'champion-1', kind: 'champion', pinned: false, weight: 1, winRate: 0.3, games: (n - 3) * 3, joinedAtGame: 36, submission: 3, checkpoint: 'sha256:33333333' },
    ],
    events: [
      { kind: 'promoted', opponent: 'champion-1', atGame: 36, submission: 3 },
      { kind: 'pinned', opponent: 'planner', atGame: 40 },
      { kind: 'dropped', opponent: 'random', atGame: 50 },
    ],
  };
  const table = Object.entries(mu).map(([id, m]) => ({ id, mu: m, sigma: sigmaNow, ordinal: m - 3 * sigmaNow })).sort((x, y) => y.ordinal - x.ordinal);
  return { submissions, pool: poolFile, ratings: { format: ARENA_RATINGS_FORMAT, table, history } };
}

/** One submission's games in a written run: which built-in plays for it, and against whom on which seeds. */
export interface PlayedSubmission { submission: number; plays: string; games: { opponent: string; seed: number; side?: string }[] }

/**
 * Writes an arena run folder (run.json with arena options, summaries, match files, pool, ratings)
 * whose matches are real games between built-in opponents. Returns the summaries written.
 */
export function writeArenaRun(dir: string, envId: 'CaptureTheFlag-v0' | 'ConnectFour-v0', subs: readonly PlayedSubmission[]): ArenaSubmissionSummary[] {
  const game = envId === 'CaptureTheFlag-v0' ? captureTheFlagGame() : connectFourGame();
  const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put('.policyforge/run.json', JSON.stringify({ envId, arena: { screenGames: 3, deepGames: 20 } }));
  let n = 0;
  const total = 200;
  const out: ArenaSubmissionSummary[] = [];
  for (const s of subs) {
    const games: ArenaGameRecord[] = [];
    for (const g of s.games) {
      const m = recordMatch(game, { submission: s.submission, game: n, seed: g.seed, own: s.plays, opponent: g.opponent, submissionSide: g.side ?? game.sides[0] });
      const rel = `feedback/submit-${String(s.submission).padStart(4, '0')}/games/game-${String(n).padStart(5, '0')}.jsonl`;
      put(rel, `${matchLines(m)}\n`);
      const own = m.outcome?.scores[m.header.submissionSide] ?? 0;
      const opp = Object.entries(m.outcome?.scores ?? {}).find(([k]) => k !== m.header.submissionSide)?.[1] ?? 0;
      games.push({ game: n, stage: 'screen', opponent: g.opponent, side: m.header.submissionSide, seed: g.seed, outcome: m.outcome?.outcome ?? 'D', score: { own, opponent: opp }, steps: m.outcome?.steps ?? m.steps.length, trajectory: rel });
      n++;
    }
    const per = new Map<string, OpponentResult>();
    for (const g of games) {
      const r = per.get(g.opponent) ?? { opponent: g.opponent, kind: 'built-in', W: 0, D: 0, L: 0, games: 0, points: 0, errors: [] };
      r[g.outcome]++;
      r.games++;
      r.points += g.outcome === 'W' ? 1 : g.outcome === 'D' ? 0.5 : 0;
      per.set(g.opponent, r);
    }
    const results = [...per.values()];
    const points = results.reduce((a, r) => a + r.points, 0);
    const wins = results.reduce((a, r) => a + r.W, 0);
    const summary: ArenaSubmissionSummary = {
      format: ARENA_SUMMARY_FORMAT, submission: s.submission, checkpoint: `sha256:${String(s.submission).repeat(12)}`, envId, createdAt: new Date(Date.UTC(2026, 11, 4, 18, s.submission)).toISOString(),
      stage: 'screen', reason: `screen points rate ${(points / games.length).toFixed(2)}`,
      screen: { games: games.length, pointsRate: points / games.length, winRate: wins / games.length, perOpponent: results, passMark: 0.5 },
      deep: null, promoted: null, gamesCharged: games.length, budget: { total, used: n, remaining: total - n }, weights: Object.fromEntries(results.map((r) => [r.opponent, 1])), games, typeErrors: 0,
    };
    put(`feedback/submit-${String(s.submission).padStart(4, '0')}/summary.json`, JSON.stringify(summary, null, 1));
    out.push(summary);
  }
  const opponents = [...new Set(subs.flatMap((s) => s.games.map((g) => g.opponent)))];
  put('feedback/arena/pool.json', JSON.stringify({ format: ARENA_POOL_FORMAT, entries: opponents.map((id) => ({ id, kind: 'built-in', pinned: false, weight: 1, winRate: null, games: 0, joinedAtGame: 0 })), events: [] } satisfies ArenaPoolFile));
  return out;
}
