/**
 * The end of an arena run, with the single-agent discipline: validation picks one submission on
 * games nobody saw (fresh hidden seeds, every candidate against the final pool on the same
 * seeds; best points rate, the later submission on ties), then the assessment plays only that one
 * against the hidden opponents (roster.ts: variants no run ever meets) and against the final pool.
 * Nothing here is charged; the report goes to `.policyforge/report.json`.
 */
import { connectFourRoster, ctfRoster, type RosterEntry } from '../../envs/arena/roster';
import { ctfConfigOf } from '../../envs/arena/definitions';
import { ARENA_REPORT_FORMAT, type ArenaRunReport } from '../../protocol/arena';
import { writeJsonAtomic } from '../atomicFs';
import type { PolicyBundle } from '../../sandbox/types';
import type { SeedDeriver } from '../secret';
import type { ArenaRunner } from './arenaRunner';
import { playGames, type GameSpec, type OpponentRef } from './games';
import type { ArenaProgress } from './service';
import { stageResult } from './stageResult';

/** What a finish stage says in its progress: validation counts the candidates done before this one. */
type Stage = { phase: 'validation'; against: 'pool'; candidates: { done: number; total: number } } | { phase: 'assessment'; against: 'pool' | 'hidden' };

/** Game numbers of the hidden stages, apart from the run's charged games. */
const VALIDATION_GAMES = 1_000_000;
const ASSESSMENT_GAMES = 2_000_000;

export function hiddenOpponents(envId: string, params: Readonly<Record<string, number | boolean | string>>): { entry: RosterEntry; index: number }[] {
  const roster = envId === 'ConnectFour-v0' ? connectFourRoster() : ctfRoster(ctfConfigOf(params));
  return roster.map((entry, index) => ({ entry, index })).filter((x) => x.entry.kind === 'hidden');
}

export async function runArenaFinish(run: ArenaRunner, seeds: SeedDeriver, progress: (p: ArenaProgress) => void): Promise<ArenaRunReport> {
  const state = run.state;
  const o = run.options;
  const pool = state.pool.list().map((e) => e.id);
  const deepOnes = state.submissions.filter((s) => s.stage === 'deep');
  const candidates = deepOnes.length ? deepOnes : state.submissions;
  const kinds = (id: string): 'built-in' | 'champion' | 'hidden' => (state.champions.has(id) ? 'champion' : state.builtIns.includes(id) ? 'built-in' : 'hidden');
  const bundleOf = (checkpoint: string): PolicyBundle => ({ id: checkpoint, code: run.readCheckpointBundle(checkpoint), files: [] });

  /** Plays `submission` against `opponents`, `games` each, on seeds shared by every candidate. */
  const playAgainst = async (submission: number, checkpoint: string, opponents: readonly OpponentRef[], games: number, base: number, label: string, stage: Stage): Promise<ReturnType<typeof stageResult>> => {
    const { phase } = stage;
    const own = [...state.champions.entries()].filter(([, c]) => c.checkpoint === checkpoint).map(([id]) => id);
    const specs: GameSpec[] = [];
    let k = 0;
    for (const opp of opponents) {
      if (own.includes(opp.id)) continue; // a champion never plays itself
      for (let i = 0; i < games; i++, k++) {
        const game = base + k;
        specs.push({ game, stage: phase, opponent: opp, side: run.sidesOf()[i % 2] as string, seed: seeds.seed(`arena/${label}/${opp.id}/${i}`), policySeed: seeds.seed(`arena/${label}/policy/${opp.id}/${i}`) });
      }
    }
    let done = 0;
    const report = (): void => progress({ ...stage, submission, done, total: specs.length });
    report();
    const played = await playGames(bundleOf(checkpoint), specs, run.playOptions(submission, false, () => {
      done++;
      report();
    }));
    return stageResult(played.map((p) => p.result), kinds);
  };

  const poolRefs = pool.map((id) => run.opponentRef(id));
  const validated: ArenaRunReport['validation']['candidates'] = [];
  for (const [i, c] of candidates.entries()) {
    const r = await playAgainst(c.submission, c.checkpoint, poolRefs, o.validationGames, VALIDATION_GAMES, 'validation', { phase: 'validation', against: 'pool', candidates: { done: i, total: candidates.length } });
    validated.push({ submission: c.submission, checkpoint: c.checkpoint, pointsRate: r.pointsRate, winRate: r.winRate, games: r.games });
  }
  // Candidates are in submission order: `>=` lets the later one win a tie.
  let best: (typeof validated)[number] | null = null;
  for (const v of validated) if (!best || v.pointsRate >= best.pointsRate) best = v;
  const selected: ArenaRunReport['selected'] = best ? { submission: best.submission, checkpoint: best.checkpoint } : null;
  let assessment: ArenaRunReport['assessment'] = null;
  if (selected) {
    const hidden = hiddenOpponents(run.config.envId, run.gameParams);
    const hiddenRefs: OpponentRef[] = hidden.map((h) => ({ id: h.entry.id, kind: 'hidden', roster: h.index }));
    const vsHidden = await playAgainst(selected.submission, selected.checkpoint, hiddenRefs, o.assessmentGames, ASSESSMENT_GAMES, 'assessment/hidden', { phase: 'assessment', against: 'hidden' });
    const vsPool = await playAgainst(selected.submission, selected.checkpoint, poolRefs, o.assessmentGames, ASSESSMENT_GAMES + 100_000, 'assessment/pool', { phase: 'assessment', against: 'pool' });
    assessment = { hidden: { ...vsHidden, opponents: hidden.map((h) => ({ id: h.entry.id, description: h.entry.description })) }, finalPool: vsPool };
  }
  const report: ArenaRunReport = {
    format: ARENA_REPORT_FORMAT,
    runId: run.config.runId,
    envId: run.config.envId,
    params: { ...run.gameParams },
    budget: { total: run.config.budget, used: state.gamesUsed, remaining: run.config.budget - state.gamesUsed },
    submissions: state.submissions.length,
    trigger: state.finish?.trigger ?? 'request',
    validation: { gamesPerOpponent: o.validationGames, candidates: validated },
    selected,
    assessment,
    pool: state.poolInfo(),
    ratings: state.ratings.table(),
    completedAt: new Date().toISOString(),
  };
  writeJsonAtomic(run.paths.report, report);
  return report;
}
