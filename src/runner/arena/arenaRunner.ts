/**
 * An arena run served by the runner: `arena.submit` builds the policy like any submit, plays the
 * screen (screenGames against every pool opponent) and, when it passes, the deep evaluation
 * (deepGames spread by the weakness weights) in the sandbox, promotes a submission that beats
 * the pool by the margin, and charges the games once the feedback is durable. The run's state is
 * the fold of `.policyforge/arena.jsonl` (arenaState.ts), so a killed runner resumes without
 * charging twice: a submission started and never charged is rolled back on the next start.
 */
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { arenaGame } from '../../envs/arena';
import type { ArenaOptions, ArenaRunReport, ArenaStatus, ArenaSubmissionSummary } from '../../protocol/arena';
import { ARENA_SUMMARY_FORMAT } from '../../protocol/arena';
import type { PolicyBundle } from '../../sandbox/types';
import { readJson } from '../atomicFs';
import { CheckpointStore } from '../checkpoints';
import type { RunConfig } from '../config';
import type { EpisodeExecutor } from '../executor';
import { Journal, type JournalEvent } from '../journal';
import type { WorkspacePaths } from '../paths';
import { RequestQueue } from '../requestQueue';
import { RunError } from '../runError';
import { openSeeds, type SeedDeriver } from '../secret';
import { gamePath, publishFeedback, readSummary, removeFeedback, writeDerived } from './arenaFiles';
import { runArenaFinish } from './arenaFinish';
import { ArenaState, type ArenaEvent } from './arenaState';
import { ArenaRunnerFault, playGames, type GameSpec, type OpponentRef, type PlayOptions } from './games';
import type { ArenaPoolResult, ArenaProgress, ArenaService, ArenaServiceEvents } from './service';
import { stageResult } from './stageResult';

export interface ArenaRunnerOptions {
  executor: EpisodeExecutor;
  log?: (message: string) => void;
}

export class ArenaRunner extends EventEmitter<ArenaServiceEvents> implements ArenaService {
  readonly state: ArenaState;
  readonly options: ArenaOptions;
  private readonly journal: Journal;
  private readonly queue = new RequestQueue();
  private readonly seeds: SeedDeriver;
  private readonly checkpoints: CheckpointStore;
  private readonly sides: readonly [string, string];
  /** The game's own parameters: run.json's params without the side view's two. */
  readonly gameParams: Record<string, number | boolean | string>;
  private readonly recoveryNotes: string[] = [];
  private running: { submission: number; stage: 'screen' | 'deep'; done: number; total: number } | null = null;
  /** The submission whose games are under way and what cancels it (from its journaled start to its charge). */
  private current: { submission: number; abort: AbortController } | null = null;
  private finishing: Promise<ArenaRunReport> | null = null;
  /** The finish's latest progress, for `status`. */
  private finishProgress: ArenaProgress | null = null;
  private readonly abort = new AbortController();

  constructor(readonly config: RunConfig, readonly paths: WorkspacePaths, private readonly opts: ArenaRunnerOptions) {
    super();
    if (!config.arena) throw new Error(`${config.envId} is not an arena game`);
    this.options = config.arena;
    const { side: _s, opponent: _o, ...gameParams } = config.params;
    this.gameParams = gameParams;
    const game = arenaGame(config.envId, gameParams);
    this.sides = game.sides;
    this.state = new ArenaState(game.opponents, this.options, config.budget);
    const file = path.join(paths.state, 'arena.jsonl');
    for (const e of Journal.read(file)) this.state.apply(e as unknown as ArenaEvent);
    this.journal = new Journal(file);
    // The single-agent side of the runner (Run.open) created the run's secret already.
    this.seeds = openSeeds(config.runId, Journal.read(paths.events)).seeds;
    this.checkpoints = new CheckpointStore(paths);
    for (const [n] of this.state.unfinished) {
      removeFeedback(paths, n);
      this.record({ type: 'arena_rolled_back', submission: n, reason: 'the runner stopped before its games were charged' });
      this.recoveryNotes.push(`submission ${n} was interrupted before its games were charged: rolled back, nothing charged`);
    }
    const last = this.state.submissions.at(-1);
    writeDerived(paths, this.state, last ? readSummary(paths, last.submission) : undefined);
    if (this.state.finish && !this.state.completed) void this.finish().catch((e: unknown) => this.log(`resumed arena finish failed: ${String(e)}`));
    else this.finishIfSpent();
  }

  private log(m: string): void {
    this.opts.log?.(m);
  }

  private record(e: ArenaEvent): void {
    this.journal.append(e as unknown as JournalEvent);
    this.state.apply(e);
  }

  get remaining(): number {
    return this.config.budget - this.state.gamesUsed;
  }

  get idle(): boolean {
    return this.queue.empty && this.running === null && this.finishing === null;
  }

  // --- queries ----------------------------------------------------------------------------

  status(): ArenaStatus {
    const s = this.state;
    const { screenGames, deepGames, screenPass, promotionMargin, maxPool } = this.options;
    return {
      phase: s.completed ? 'complete' : !s.finish ? 'agent' : this.finishProgress?.phase === 'assessment' ? 'assessing' : 'validating',
      envId: this.config.envId,
      budget: { total: this.config.budget, used: s.gamesUsed, remaining: this.remaining },
      options: { screenGames, deepGames, screenPass, promotionMargin, maxPool },
      pool: s.poolInfo(),
      weights: s.pool.weights(),
      events: [...s.events],
      ratings: s.ratings.table(),
      history: s.submissions.map((b) => ({ ...b })),
      running: this.running ? { ...this.running } : null,
      finishing: s.finish && !s.completed ? finishingOf(this.finishProgress) : null,
      recovery: [...this.recoveryNotes],
    };
  }

  feedback(submission?: number): ArenaSubmissionSummary {
    const n = submission ?? this.state.submissions.at(-1)?.submission;
    if (n === undefined) throw new RunError('unknownSubmission', 'no arena submission yet');
    if (!this.state.submissions.some((b) => b.submission === n)) throw new RunError('unknownSubmission', `no arena submission ${n} (${this.state.submissions.length} so far)`);
    const summary = readSummary(this.paths, n);
    if (!summary) throw new RunError('internal', `feedback of submission ${n} is missing or unreadable`);
    return summary;
  }

  report(): ArenaRunReport | null {
    return this.state.completed ? (readJson<ArenaRunReport>(this.paths.report) ?? null) : null;
  }

  // --- pool -------------------------------------------------------------------------------

  pin(p: { opponent: string; pinned: boolean }): Promise<ArenaPoolResult> {
    return this.queue.enqueue(async () => this.changePool({ type: 'arena_pin', opponent: p.opponent, pinned: p.pinned }));
  }

  drop(opponent: string): Promise<ArenaPoolResult> {
    return this.queue.enqueue(async () => this.changePool({ type: 'arena_drop', opponent }));
  }

  private changePool(e: Extract<ArenaEvent, { type: 'arena_pin' | 'arena_drop' }>): ArenaPoolResult {
    if (this.state.finish) throw new RunError('runFinished', 'the run is finishing or finished: the pool is final');
    const pool = this.state.pool;
    if (!pool.list().some((x) => x.id === e.opponent)) throw new RunError('poolRefused', `no opponent "${e.opponent}" in the pool (${pool.list().map((x) => x.id).join(', ')})`);
    if (e.type === 'arena_drop') {
      if (pool.get(e.opponent).pinned) throw new RunError('poolRefused', `${e.opponent} is pinned: unpin it before dropping it`);
      if (pool.list().length === 1) throw new RunError('poolRefused', 'the pool cannot be empty');
    }
    this.record(e);
    writeDerived(this.paths, this.state);
    return { pool: this.state.poolInfo(), weights: pool.weights() };
  }

  // --- submit -----------------------------------------------------------------------------

  submit(params: { note?: string; strict?: boolean }): Promise<ArenaSubmissionSummary> {
    return this.queue.enqueue(async () => {
      const reject = (kind: ConstructorParameters<typeof RunError>[0], message: string, data: Record<string, unknown> = {}): never => {
        const err = new RunError(kind, message, data);
        this.record({ type: 'arena_rejected', reason: err.reason, message });
        throw err;
      };
      if (this.state.finish) reject('runFinished', 'the arena run is finishing or finished');
      const built = await this.opts.executor.build(this.paths.root, { typeCheck: params.strict === true });
      if (!built.ok) return reject('bundleDoesNotBuild', 'policy/ does not build', { diagnostics: built.diagnostics });
      const typeErrors = built.diagnostics.filter((d) => d.kind === 'type' && d.severity === 'error').length;
      if (params.strict && typeErrors > 0) reject('typeErrors', `policy/ has ${typeErrors} type error(s)`, { diagnostics: built.diagnostics });
      const pool = [...this.state.pool.list()];
      const screenCost = pool.length * this.options.screenGames;
      if (screenCost > this.remaining) reject('budgetExhausted', `the screen needs ${screenCost} games (${this.options.screenGames} per opponent × ${pool.length}) and ${this.remaining} are left`);
      const n = this.state.nextSubmission;
      this.record({ type: 'arena_submit_started', submission: n, checkpoint: built.bundle.id });
      const abort = new AbortController();
      this.current = { submission: n, abort };
      try {
        return await this.evaluate(n, built.bundle, typeErrors, params.note, abort.signal);
      } catch (e) {
        removeFeedback(this.paths, n);
        const cancelled = abort.signal.aborted && !this.abort.signal.aborted;
        this.record({ type: 'arena_rolled_back', submission: n, reason: cancelled ? 'cancelled' : e instanceof Error ? e.message : String(e) });
        if (cancelled) throw new RunError('cancelled', `submission ${n} was cancelled before its games were charged; nothing was charged`, { submission: n });
        if (e instanceof RunError) throw e;
        throw new RunError('internal', `the submission was rolled back, nothing charged: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        this.running = null;
        this.current = null;
      }
    });
  }

  /**
   * Stops the submission whose games are under way: it is rolled back and charges nothing. A
   * cancel that comes once its games are all played and its feedback is being published is too
   * late only if the charge is already journaled; otherwise it still wins.
   */
  cancel(): { cancelled: boolean; submission: number | null } {
    if (!this.current) return { cancelled: false, submission: null };
    this.current.abort.abort();
    return { cancelled: true, submission: this.current.submission };
  }

  private async evaluate(n: number, bundle: PolicyBundle, typeErrors: number, note: string | undefined, signal: AbortSignal): Promise<ArenaSubmissionSummary> {
    const o = this.options;
    await this.checkpoints.save(bundle);
    const pool = [...this.state.pool.list()];
    let game = this.state.gamesUsed;
    const spec = (opponentId: string, stage: 'screen' | 'deep'): GameSpec => {
      game++;
      return { game, stage, opponent: this.opponentRef(opponentId), side: this.sides[game % 2] as string, seed: this.seeds.seed(`arena/game/${game}`), policySeed: this.seeds.seed(`arena/policy/${game}`) };
    };
    // Every submission plays the same screen games against an opponent (seed and seat by the
    // game's index there), so two submissions' screens are a paired comparison and the replay
    // can show their matches side by side; deep games stay fresh.
    const screenSpec = (opponentId: string, i: number): GameSpec => ({
      ...spec(opponentId, 'screen'),
      side: this.sides[i % 2] as string,
      seed: this.seeds.seed(`arena/screen/${opponentId}/${i}`),
      policySeed: this.seeds.seed(`arena/screen/policy/${opponentId}/${i}`),
    });
    const screenSpecs = pool.flatMap((e) => Array.from({ length: o.screenGames }, (_, i) => screenSpec(e.id, i)));
    const screen = await this.play(n, bundle, screenSpecs, 'screen', signal);
    const screenRes = stageResult(screen.map((p) => p.result), this.kinds());
    let stage: 'screen' | 'deep' = 'screen';
    let reason: string;
    let deep: typeof screen = [];
    let promoted: string | null = null;
    const bar = 0.5 + o.promotionMargin;
    const left = this.remaining - screen.length;
    if (screenRes.pointsRate < o.screenPass) {
      reason = `screen points rate ${fmt(screenRes.pointsRate)} is below the pass mark ${fmt(o.screenPass)}: no deep evaluation`;
    } else if (left < o.deepGames) {
      reason = `passed the screen (${fmt(screenRes.pointsRate)}) but only ${left} games are left for a ${o.deepGames}-game deep evaluation`;
    } else {
      stage = 'deep';
      const plan = this.state.pool.allocate(o.deepGames);
      const deepSpecs = pool.flatMap((e) => Array.from({ length: plan[e.id] ?? 0 }, () => spec(e.id, 'deep')));
      deep = await this.play(n, bundle, deepSpecs, 'deep', signal);
      const rate = stageResult(deep.map((p) => p.result), this.kinds()).pointsRate;
      if (rate >= bar) {
        promoted = `champion-${this.state.events.filter((e) => e.kind === 'promoted').length + 1}`;
        reason = `passed the screen (${fmt(screenRes.pointsRate)}); deep points rate ${fmt(rate)} ≥ ${fmt(bar)}: promoted into the pool as ${promoted}`;
      } else {
        reason = `passed the screen (${fmt(screenRes.pointsRate)}); deep points rate ${fmt(rate)} < ${fmt(bar)}: not promoted`;
      }
    }
    const all = [...screen, ...deep];
    const matches = new Map<number, string[]>();
    for (const p of all) {
      if (!p.lines) continue;
      matches.set(p.result.game, p.lines);
      p.result.trajectory = gamePath(n, p.result.game);
    }
    const deepRes = deep.length ? stageResult(deep.map((p) => p.result), this.kinds()) : null;
    const summary: ArenaSubmissionSummary = {
      format: ARENA_SUMMARY_FORMAT,
      submission: n,
      checkpoint: bundle.id,
      envId: this.config.envId,
      createdAt: new Date().toISOString(),
      ...(note !== undefined ? { note } : {}),
      stage,
      reason,
      screen: { ...screenRes, passMark: o.screenPass },
      deep: deepRes ? { ...deepRes, promotionBar: bar } : null,
      promoted,
      gamesCharged: all.length,
      budget: { total: this.config.budget, used: this.state.gamesUsed + all.length, remaining: this.remaining - all.length },
      weights: {},
      games: all.map((p) => p.result),
      typeErrors,
    };
    const charge: ArenaEvent = {
      type: 'arena_charged',
      submission: n,
      checkpoint: bundle.id,
      stage,
      screenPointsRate: screenRes.pointsRate,
      deepPointsRate: deepRes?.pointsRate ?? null,
      games: all.map((p) => ({ game: p.result.game, opponent: p.result.opponent, outcome: p.result.outcome })),
      promoted,
    };
    summary.weights = this.weightsAfter(charge);
    publishFeedback(this.paths, summary, matches);
    // Publishing is synchronous: a cancel can only have landed before it, so this is the last word.
    if (signal.aborted) throw new ArenaRunnerFault('cancelled');
    this.record(charge);
    writeDerived(this.paths, this.state, summary);
    this.emit('submitted', summary);
    this.finishIfSpent();
    return summary;
  }

  /** The weights once `charge` is applied, computed on a copy of the journal's fold. */
  private weightsAfter(charge: ArenaEvent): Record<string, number> {
    const copy = new ArenaState(this.state.builtIns, this.options, this.config.budget);
    for (const e of Journal.read(path.join(this.paths.state, 'arena.jsonl'))) copy.apply(e as unknown as ArenaEvent);
    copy.apply(charge);
    return copy.pool.weights();
  }

  private kinds(): (id: string) => 'built-in' | 'champion' | 'hidden' {
    return (id) => (this.state.champions.has(id) ? 'champion' : this.state.builtIns.includes(id) ? 'built-in' : 'hidden');
  }

  sidesOf(): readonly [string, string] {
    return this.sides;
  }

  readCheckpointBundle(checkpoint: string): string {
    return fs.readFileSync(path.join(this.paths.checkpointDir(checkpoint), 'bundle.js'), 'utf8');
  }

  /** How a pool opponent is played: a built-in by its roster index, a champion from its checkpoint's bundle. */
  opponentRef(id: string): OpponentRef {
    const champ = this.state.champions.get(id);
    if (champ) {
      return { id, kind: 'champion', bundle: { id: champ.checkpoint, code: this.readCheckpointBundle(champ.checkpoint), files: [] } };
    }
    const index = this.state.builtIns.indexOf(id);
    if (index < 0) throw new Error(`unknown opponent ${id}`);
    return { id, kind: 'built-in', roster: index };
  }

  /** How the games of `submission` run; `signal` (a submit's cancel) stops them besides the runner's close. */
  playOptions(submission: number, record: boolean, onGame?: () => void, signal?: AbortSignal): PlayOptions {
    return {
      executor: this.opts.executor,
      envId: this.config.envId,
      params: this.gameParams,
      sides: this.sides,
      submission,
      limits: { episodeTimeoutMs: this.config.episodeTimeoutMs, actTimeoutMs: this.config.actTimeoutMs, maxLogBytes: this.config.maxLogBytes },
      record,
      plugins: this.config.plugins,
      signal: signal ? AbortSignal.any([this.abort.signal, signal]) : this.abort.signal,
      ...(onGame ? { onGame } : {}),
    };
  }

  private play(n: number, bundle: PolicyBundle, specs: GameSpec[], stage: 'screen' | 'deep', signal: AbortSignal): ReturnType<typeof playGames> {
    this.running = { submission: n, stage, done: 0, total: specs.length };
    const progress = (): void => {
      if (!this.running) return;
      this.running.done++;
      this.emit('progress', { phase: stage, submission: n, done: this.running.done, total: this.running.total });
    };
    this.emit('progress', { phase: stage, submission: n, done: 0, total: specs.length });
    if (signal.aborted) return Promise.reject(new ArenaRunnerFault('cancelled'));
    return playGames(bundle, specs, this.playOptions(n, true, progress, signal));
  }

  // --- finish -----------------------------------------------------------------------------

  private finishIfSpent(): void {
    if (!this.state.finish && this.remaining <= 0) void this.finish('budget').catch((e: unknown) => this.log(`arena finish failed: ${String(e)}`));
  }

  finish(trigger: 'budget' | 'request' = 'request'): Promise<ArenaRunReport> {
    if (this.state.completed) {
      const r = this.report();
      if (r) return Promise.resolve(r);
    }
    this.finishing ??= this.queue
      .enqueue(async () => {
        if (!this.state.finish) this.record({ type: 'arena_finish_started', trigger });
        const report = await runArenaFinish(this, this.seeds, (p) => {
          this.finishProgress = p;
          this.emit('progress', p);
        });
        this.record({ type: 'arena_completed' });
        this.emit('completed', report);
        return report;
      })
      .finally(() => {
        this.finishing = null;
        this.finishProgress = null;
      });
    return this.finishing;
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.queue.drained();
    this.journal.close();
  }
}

const fmt = (x: number): string => x.toFixed(2);

/** Status's view of the finish: before its first game, validation with nothing done yet. */
function finishingOf(p: ArenaProgress | null): NonNullable<ArenaStatus['finishing']> {
  if (!p || (p.phase !== 'validation' && p.phase !== 'assessment')) return { phase: 'validation', against: 'pool', submission: 0, candidatesDone: 0, candidatesTotal: 0, gamesDone: 0, gamesTotal: 0 };
  return { phase: p.phase, against: p.against ?? 'pool', submission: p.submission ?? 0, candidatesDone: p.candidates?.done ?? 0, candidatesTotal: p.candidates?.total ?? 0, gamesDone: p.done, gamesTotal: p.total };
}
