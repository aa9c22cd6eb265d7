/**
 * Plays arena games in the sandbox: each game is one episode of the game's side view
 * (src/envs/arena/sideEnv.ts) with the submission's bundle in the policy realm; the other side is
 * a roster opponent on the worker's trusted side or a champion's bundle in a policy realm of its
 * own. Turns each record into a game result from the submission's point of view and its match
 * trajectory lines (src/protocol/arena.ts).
 */
import { setMaxListeners } from 'node:events';
import type { ArenaGame as ArenaGameResult, ArenaOutcome, ArenaStage, OpponentKind } from '../../protocol/arena';
import type { MatchHeader } from '../../protocol/arenaMatch';
import type { EpisodeRecord } from '../../protocol/episodes';
import type { PolicyBundle } from '../../sandbox/types';
import type { EpisodeExecutor } from '../executor';

/** Who plays the other side: a roster index (built-in or hidden) or a champion's bundle. */
export type OpponentRef = { id: string; kind: OpponentKind; roster: number } | { id: string; kind: 'champion'; bundle: PolicyBundle };

export interface GameSpec {
  game: number;
  stage: ArenaStage;
  opponent: OpponentRef;
  side: string;
  seed: number;
  policySeed: number;
}

export interface PlayedGame {
  result: ArenaGameResult;
  /** The match trajectory's lines (header, steps, outcome), when the record kept them. */
  lines: string[] | null;
}

export interface PlayOptions {
  executor: EpisodeExecutor;
  envId: string;
  /** The game's own parameters (no side, no opponent). */
  params: Readonly<Record<string, number | boolean | string>>;
  sides: readonly [string, string];
  submission: number;
  limits: { episodeTimeoutMs: number; actTimeoutMs: number; maxLogBytes: number };
  /** Keep match trajectories (training games; hidden stages keep none). */
  record: boolean;
  plugins?: readonly string[];
  signal?: AbortSignal;
  onGame?: () => void;
}

export class ArenaRunnerFault extends Error {
  override name = 'ArenaRunnerFault';
}

/** Plays every game (batched by opponent and side, all batches at once on the shared pool). */
export async function playGames(bundle: PolicyBundle, specs: readonly GameSpec[], o: PlayOptions): Promise<PlayedGame[]> {
  const groups = new Map<string, GameSpec[]>();
  for (const s of specs) {
    const key = `${s.opponent.id}\n${s.side}`;
    const g = groups.get(key) ?? [];
    g.push(s);
    groups.set(key, g);
  }
  const byGame = new Map<number, PlayedGame>();
  // One signal for this call's batches (one per opponent and side), so the run's long-lived
  // signal does not collect a listener per batch.
  const ctl = new AbortController();
  setMaxListeners(2 * groups.size + 8, ctl.signal);
  const onAbort = (): void => ctl.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) ctl.abort();
  try {
  await Promise.all(
    [...groups.values()].map(async (games) => {
      const first = games[0] as GameSpec;
      const opp = first.opponent;
      const records = await o.executor.runBatch({
        bundle,
        ...('bundle' in opp ? { opponent: opp.bundle } : {}),
        envId: o.envId,
        params: { ...o.params, side: first.side, opponent: 'bundle' in opp ? -1 : opp.roster },
        episodes: games.map((g) => ({ caseIndex: g.game, envSeed: g.seed, policySeed: g.policySeed })),
        limits: { ...o.limits, maxTrajectorySteps: o.record ? 100_000 : 0, recordSnapshots: true },
        ...(o.plugins ? { plugins: o.plugins } : {}),
        signal: ctl.signal,
        onEpisode: () => o.onGame?.(),
      });
      for (const r of records) {
        const spec = games.find((g) => g.game === r.caseIndex) as GameSpec;
        byGame.set(spec.game, toPlayed(r, spec, o));
      }
    }),
  );
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
  if (ctl.signal.aborted) throw new ArenaRunnerFault('cancelled');
  return specs.map((s) => {
    const p = byGame.get(s.game);
    if (!p) throw new ArenaRunnerFault(`game ${s.game} did not run`);
    return p;
  });
}

interface StepLine {
  type: 'step';
  captures?: Record<string, number>;
  opponentFailure?: string;
}

function toPlayed(r: EpisodeRecord, spec: GameSpec, o: PlayOptions): PlayedGame {
  if (r.status === 'runner_fault') throw new ArenaRunnerFault(`game ${spec.game} against ${spec.opponent.id}: ${r.error?.message ?? 'runner fault'}`);
  const other = o.sides[0] === spec.side ? o.sides[1] : o.sides[0];
  const steps = r.trajectory.stepsJsonl === '' ? [] : r.trajectory.stepsJsonl.split('\n');
  const last = steps.length ? (JSON.parse(steps[steps.length - 1] as string) as StepLine) : undefined;
  const initial = r.trajectory.initialSnapshot as { first?: unknown; agents?: string[]; field?: unknown; flagHomes?: unknown; rows?: number; cols?: number } | undefined;
  // CTF reports captures; Connect Four's return is +1 / −1 / 0 for a win, a loss, a draw.
  let own: number, theirs: number;
  if (last?.captures) {
    own = last.captures[spec.side] ?? 0;
    theirs = last.captures[other] ?? 0;
  } else {
    own = r.return > 0 ? 1 : 0;
    theirs = r.return < 0 ? 1 : 0;
  }
  let outcome: ArenaOutcome = own > theirs ? 'W' : own < theirs ? 'L' : 'D';
  let error: ArenaGameResult['error'];
  if (r.status !== 'ok') {
    outcome = 'L';
    error = { side: 'submission', status: r.status, message: r.error?.message ?? r.status };
  } else if (last?.opponentFailure !== undefined) {
    outcome = 'W';
    error = { side: 'opponent', status: 'exception', message: last.opponentFailure };
  }
  const result: ArenaGameResult = { game: spec.game, stage: spec.stage, opponent: spec.opponent.id, side: spec.side, seed: spec.seed, outcome, score: { own, opponent: theirs }, steps: r.length, ...(error ? { error } : {}) };
  if (!o.record || !r.trajectory.format) return { result, lines: null };
  const header: MatchHeader = {
    type: 'header',
    format: r.trajectory.format as MatchHeader['format'],
    envId: o.envId,
    params: { ...o.params },
    submission: o.submission,
    game: spec.game,
    stage: spec.stage,
    seed: spec.seed,
    sides: [o.sides[0], o.sides[1]],
    submissionSide: spec.side,
    opponent: spec.opponent.id,
    opponentKind: spec.opponent.kind,
    agents: initial?.agents ?? [...o.sides],
    ...(initial?.field ? { field: initial.field as MatchHeader['field'] } : {}),
    ...(initial?.flagHomes ? { flagHomes: initial.flagHomes as MatchHeader['flagHomes'] } : {}),
    ...(initial?.rows ? { rows: initial.rows, cols: initial.cols } : {}),
  };
  const lines = [JSON.stringify(header)];
  if (initial?.first) lines.push(JSON.stringify(initial.first));
  lines.push(...steps.flatMap((s) => s.split('\n')));
  const scores = { [spec.side]: own, [other]: theirs };
  lines.push(JSON.stringify({ type: 'outcome', outcome, scores, steps: r.length, truncated: r.truncated, ...(error ? { error } : {}) }));
  return { result, lines };
}
