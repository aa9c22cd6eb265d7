/**
 * Arena runs through the real runner: a host serving the workspace over WebSocket, the policies
 * in sandbox workers, the files on disk. Connect Four where the game does not matter.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArenaPool, parseArenaReport, parseArenaSummary } from '../../../src/protocol/arena';
import { parseMatchTrajectory } from '../../../src/protocol/arenaMatch';
import { RunErrorCode } from '../../../src/protocol/run';
import { connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';
import { makeArenaWorkspace as makeWorkspaceOnly, pinArenaSecret, STRONG_CONNECT_FOUR, THROWING_POLICY, WEAK_CONNECT_FOUR } from './arenaHelpers';

/** Every workspace here has a pinned secret: the same seeds, the same games, every run. */
function makeArenaWorkspace(...args: Parameters<typeof makeWorkspaceOnly>): string {
  const dir = makeWorkspaceOnly(...args);
  pinArenaSecret(dir);
  return dir;
}

async function withArena<T>(dir: string, fn: (c: Awaited<ReturnType<typeof connect>>, host: Awaited<ReturnType<typeof startHost>>) => Promise<T>): Promise<T> {
  const host = await startHost(dir);
  const client = await connect(host);
  try {
    return await fn(client, host);
  } finally {
    await client.close();
    await host.close();
  }
}

function rejection(e: unknown): { code: number; reason: string; message: string } {
  const err = e as { code: number; data?: { reason: string }; message: string };
  return { code: err.code, reason: err.data?.reason ?? '', message: err.message };
}

describe('arena runs through the runner', function () {
  this.timeout(180_000);
  useInProcessRunners();

  it('a strong submission reaches the deep evaluation; its games are on disk; the weights favour the hardest opponent', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 200, { screenPass: 0.25 });
    writePolicy(dir, STRONG_CONNECT_FOUR);
    await withArena(dir, async (c) => {
      const progress: number[] = [];
      c.on('arena.progress', (p) => progress.push(p.done));
      const s = await c.request('arena.submit', { note: 'win, block, centre' });
      assert.equal(s.stage, 'deep', s.reason);
      assert.equal(s.screen.games, 12, '3 screen games against each of the 4 built-ins');
      assert.equal(s.deep?.games, 20);
      assert.equal(s.gamesCharged, 32);
      assert.deepEqual(s.budget, { total: 200, used: 32, remaining: 168 });
      assert.ok(progress.length >= 32, 'progress per game');
      const onDisk = parseArenaSummary(fs.readFileSync(path.join(dir, 'feedback', 'submit-0001', 'summary.json'), 'utf8'));
      assert.ok(onDisk.ok && onDisk.value.games.length === 32);
      const game = s.games[0]!;
      const match = parseMatchTrajectory(fs.readFileSync(path.join(dir, game.trajectory!), 'utf8'));
      assert.ok(match.ok, match.ok ? '' : match.error);
      assert.equal(match.value.header.format, 'connect-four-match/1');
      assert.equal(match.value.header.submissionSide, game.side);
      assert.equal(match.value.outcome?.outcome, game.outcome);
      // Weakness pressure: the opponent with the lowest win rate weighs 2, the others 1.
      const st = await c.request('arena.status', {});
      const hardest = [...st.pool].sort((a, b) => (a.winRate ?? 1) - (b.winRate ?? 1))[0]!;
      assert.equal(st.weights[hardest.id], 2);
      assert.equal(Object.values(st.weights).filter((w) => w === 2).length, 1);
      assert.deepEqual(s.weights, st.weights);
      assert.equal(st.ratings.length, 5, 'the submission and the four opponents are rated');
      const pool = parseArenaPool(fs.readFileSync(path.join(dir, 'feedback', 'arena', 'pool.json'), 'utf8'));
      assert.ok(pool.ok && pool.value.entries.length === 4);
    });
  });

  it('the screen stops a weak submission: only 3 games per opponent are charged, errors are recorded', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 200);
    writePolicy(dir, WEAK_CONNECT_FOUR);
    await withArena(dir, async (c) => {
      const s = await c.request('arena.submit', {});
      assert.equal(s.stage, 'screen');
      assert.match(s.reason, /below the pass mark/);
      assert.equal(s.deep, null);
      assert.equal(s.gamesCharged, 12);
      writePolicy(dir, THROWING_POLICY);
      const t = await c.request('arena.submit', {});
      assert.equal(t.gamesCharged, 12);
      assert.ok(t.games.every((g) => g.outcome === 'L' && g.error?.side === 'submission' && /boom from the policy/.test(g.error.message)));
      // Screens are paired: both submissions met each opponent on the same seeds and seats.
      const screenGames = (x: typeof s) => x.games.filter((g) => g.stage === 'screen').map((g) => `${g.opponent} ${g.seed} ${g.side}`);
      assert.deepEqual(screenGames(t), screenGames(s));
      assert.equal(new Set(screenGames(s)).size, 12, 'a seed per screen game');
      assert.equal((await c.request('arena.status', {})).budget.used, 24);
      // A submit that does not build charges nothing.
      writePolicy(dir, 'export class Policy { act( }');
      const bad = await c.request('arena.submit', {}).catch(rejection);
      assert.equal((bad as { reason: string }).reason, 'bundle_does_not_build');
      assert.equal((await c.request('arena.status', {})).budget.used, 24);
    });
  });

  it('a promoted champion joins the pool and is played, from its bundle, by the next submission', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 300);
    writePolicy(dir, STRONG_CONNECT_FOUR);
    await withArena(dir, async (c) => {
      // Against the random player alone the strong policy is promoted whatever the seeds.
      for (const id of ['defensive', 'aggressive', 'minimax']) await c.request('arena.drop', { opponent: id });
      const s = await c.request('arena.submit', {});
      assert.equal(s.promoted, 'champion-1', s.reason);
      const st = await c.request('arena.status', {});
      const champ = st.pool.find((e) => e.id === 'champion-1');
      assert.ok(champ && champ.kind === 'champion' && champ.submission === 1 && champ.checkpoint === s.checkpoint);
      assert.ok(st.events.some((e) => e.kind === 'promoted' && e.opponent === 'champion-1'));
      // Leave only the champion: the weak policy meets it three times and loses each game.
      await c.request('arena.drop', { opponent: 'random' });
      writePolicy(dir, WEAK_CONNECT_FOUR);
      const w = await c.request('arena.submit', {});
      assert.equal(w.gamesCharged, 3);
      assert.ok(w.games.every((g) => g.opponent === 'champion-1' && g.outcome === 'L' && !g.error), JSON.stringify(w.games));
      assert.equal(w.screen.perOpponent[0]?.kind, 'champion');
      const header = parseMatchTrajectory(fs.readFileSync(path.join(dir, w.games[0]!.trajectory!), 'utf8'));
      assert.ok(header.ok && header.value.header.opponentKind === 'champion');
    });
  });

  it('pin and drop: a pinned opponent cannot be dropped, nor the last one; both are journaled', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 100);
    await withArena(dir, async (c) => {
      const pinned = await c.request('arena.pin', { opponent: 'random' });
      assert.equal(pinned.pool.find((e) => e.id === 'random')?.pinned, true);
      const refused = await c.request('arena.drop', { opponent: 'random' }).catch(rejection);
      assert.equal((refused as { code: number }).code, RunErrorCode.poolRefused);
      const unknown = await c.request('arena.pin', { opponent: 'nobody' }).catch(rejection);
      assert.equal((unknown as { reason: string }).reason, 'pool_refused');
      await c.request('arena.pin', { opponent: 'random', pinned: false });
      await c.request('arena.drop', { opponent: 'random' });
      await c.request('arena.drop', { opponent: 'defensive' });
      await c.request('arena.drop', { opponent: 'aggressive' });
      const last = await c.request('arena.drop', { opponent: 'minimax' }).catch(rejection);
      assert.match((last as { message: string }).message, /cannot be empty/);
      const st = await c.request('arena.status', {});
      assert.deepEqual(st.pool.map((e) => e.id), ['minimax']);
      assert.deepEqual(st.events.map((e) => e.kind), ['pinned', 'unpinned', 'dropped', 'dropped', 'dropped']);
    });
    // The pool survives a restart: it is the fold of the journal.
    await withArena(dir, async (c) => {
      assert.deepEqual((await c.request('arena.status', {})).pool.map((e) => e.id), ['minimax']);
    });
  });

  it('finish validates, selects and writes both assessment figures to report.json; status follows its phases', async () => {
    const dir = makeArenaWorkspace('ConnectFour-v0', 100, { validationGames: 2, assessmentGames: 2 });
    await withArena(dir, async (c, host) => {
      writePolicy(dir, WEAK_CONNECT_FOUR);
      await c.request('arena.submit', {});
      writePolicy(dir, STRONG_CONNECT_FOUR);
      const strong = await c.request('arena.submit', {});
      // What status says at every progress step of the finish (read as the step is announced).
      const seen: string[] = [];
      host.arena!.on('progress', () => {
        const st = host.arena!.status();
        const f = st.finishing;
        if (!f) return;
        const line = `${st.phase} ${f.phase} vs ${f.against}: submission ${f.submission}, candidates ${f.candidatesDone}/${f.candidatesTotal}, games ${f.gamesTotal}`;
        if (seen.at(-1) !== line) seen.push(line);
      });
      const report = await c.request('arena.finish', {});
      const candidates = report.validation.candidates.map((x) => x.submission);
      const sel = report.selected!.submission;
      assert.deepEqual(seen, [
        ...candidates.map((n, i) => `validating validation vs pool: submission ${n}, candidates ${i}/${candidates.length}, games 8`),
        `assessing assessment vs hidden: submission ${sel}, candidates 0/0, games 4`,
        `assessing assessment vs pool: submission ${sel}, candidates 0/0, games 8`,
      ]);
      const done = await c.request('arena.status', {});
      assert.equal(done.phase, 'complete');
      assert.equal(done.finishing, null);
      assert.equal(report.selected?.submission, strong.stage === 'deep' ? 2 : report.selected?.submission);
      assert.ok(report.assessment, 'the selected submission was assessed');
      assert.equal(report.assessment.hidden.games, 4, '2 games against each of the 2 hidden opponents');
      assert.deepEqual(report.assessment.hidden.opponents.map((o) => o.id), ['hidden-minimax-2', 'hidden-minimax-6']);
      assert.equal(report.assessment.finalPool.games, 8);
      assert.ok(report.assessment.hidden.winRate >= 0 && report.assessment.finalPool.winRate >= 0);
      const onDisk = parseArenaReport(fs.readFileSync(path.join(dir, '.policyforge', 'report.json'), 'utf8'));
      assert.ok(onDisk.ok && onDisk.value.assessment?.finalPool.winRate === report.assessment.finalPool.winRate);
      // The agent phase is over.
      const late = await c.request('arena.submit', {}).catch(rejection);
      assert.equal((late as { reason: string }).reason, 'run_finished');
      assert.deepEqual(await c.request('arena.report', {}), report);
    });
  });

  it('methods of the other run kind are refused with wrong_run_kind', async () => {
    const arena = makeArenaWorkspace('ConnectFour-v0', 50);
    await withArena(arena, async (c) => {
      const e = await c.submit({ episodes: 2 }).catch(rejection);
      assert.equal((e as { reason: string }).reason, 'wrong_run_kind');
      assert.match((e as { message: string }).message, /arena\.submit/);
    });
    const single = makeWorkspace();
    await withArena(single, async (c) => {
      const e = await c.request('arena.status', {}).catch(rejection);
      assert.equal((e as { code: number }).code, RunErrorCode.wrongRunKind);
    });
  });

  it('CaptureTheFlag-v0: the starter plays 2v2 against the pool and reaches the deep evaluation', async () => {
    const dir = makeArenaWorkspace('CaptureTheFlag-v0', 100, { screenGames: 1, deepGames: 4, screenPass: 0.25 }, { maxSteps: 300 });
    await withArena(dir, async (c) => {
      const s = await c.request('arena.submit', {});
      assert.equal(s.screen.games, 4);
      assert.equal(s.stage, 'deep', s.reason);
      assert.equal(s.gamesCharged, 8);
      const g = s.games.find((x) => x.opponent === 'random')!;
      assert.equal(g.outcome, 'W', 'the starter outscores the random team');
      const match = parseMatchTrajectory(fs.readFileSync(path.join(dir, g.trajectory!), 'utf8'));
      assert.ok(match.ok, match.ok ? '' : match.error);
      assert.equal(match.value.header.format, 'ctf-match/1');
      assert.deepEqual(match.value.header.agents, ['blue_0', 'blue_1', 'red_0', 'red_1']);
      assert.equal(match.value.steps.length, g.steps + 1, 'the start, then one row per step');
      assert.ok(match.value.outcome && match.value.outcome.scores[g.side] === g.score.own);
    });
  });
});
