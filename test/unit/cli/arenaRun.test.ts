/**
 * A whole arena run from the CLI with a real runner and sandbox: init on ConnectFour-v0, a weak
 * policy stopped by the screen, an evolved one (examples/arena/connect-four/gen-4) promoted into
 * the pool, status showing it with the weights, pin and drop, finish, and report.json with both
 * assessment figures. The run's secret is pinned, so its seeds, and the games, are the same on
 * every machine.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArenaReport } from '../../../src/protocol/arena';
import { cleanupTmp, REPO, tmpDir, useTempDataDir, writePolicy } from '../runner/helpers';
import { pinSecret } from '../runner/pinSecret';
import { pf } from './cliHelpers';

/** Always the leftmost open column: never blocks, so it loses to every opponent that tries to win. */
const WEAK = `export class Policy {
  private readonly me: string;
  constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; }
  act(observation: Observation): Action {
    const board = observation[this.me]!;
    let col = 0;
    while (board[col] !== 0) col++;
    return { [this.me]: col };
  }
}
`;


describe('cli: an arena run end to end', function () {
  this.timeout(600_000);
  before(() => useTempDataDir());
  after(cleanupTmp);

  it('screens out a weak policy, promotes an evolved one, and reports both assessment figures', () => {
    const ws = path.join(tmpDir('arena'), 'c4');
    const init = pf(REPO, 'init', '--env', 'ConnectFour-v0', '--budget', '200', '--arena', 'validationGames=2', '--arena', 'assessmentGames=2', ws);
    assert.equal(init.code, 0, init.err);
    assert.match(init.out, /created ConnectFour-v0 arena run/);
    assert.match(init.out, /budget 200 games/);
    assert.match(fs.readFileSync(path.join(ws, 'AGENTS.md'), 'utf8'), /arena run/);
    pinSecret(ws, 'a7e5'.repeat(16));

    writePolicy(ws, WEAK);
    const weak = pf(ws, 'submit', '--note', 'leftmost column');
    assert.equal(weak.code, 0, weak.err);
    assert.match(weak.out, /reached the screen stage — screen points rate 0\.\d\d is below the pass mark 0\.50: no deep evaluation/);
    assert.match(weak.out, /deep: not played/);
    assert.match(weak.out, /^ {4}minimax +built-in +0 +0 +3 +0\/3/m, 'the per-opponent table');
    assert.match(weak.out, /games worth replaying:\n.*feedback\/submit-0001\/games\/game-\d{5}\.jsonl/);
    const weakJson = pf(ws, 'feedback', '1', '--json').json() as { summary: { stage: string; deep: unknown; gamesCharged: number } };
    assert.deepEqual([weakJson.summary.stage, weakJson.summary.deep, weakJson.summary.gamesCharged], ['screen', null, 12]);

    fs.copyFileSync(path.join(REPO, 'examples/arena/connect-four/gen-4/policy.ts'), path.join(ws, 'policy/policy.ts'));
    const strong = pf(ws, 'submit', '--note', 'gen-4');
    assert.equal(strong.code, 0, strong.err);
    assert.match(strong.out, /reached the deep stage — passed the screen/);
    assert.match(strong.out, /PROMOTED: joins the opponent pool as champion-1/);
    assert.match(strong.out, /charged 32 games; budget 44\/200 games used, 156 left/);

    const status = pf(ws, 'status');
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, /^ {2}champion-1 +champion +1 +/m);
    assert.match(status.out, /pool events:\n {2}promoted champion-1 at game 44 \(submission 2\)/);
    const st = (pf(ws, 'status', '--json').json() as { status: { pool: { id: string; weight: number }[]; weights: Record<string, number> } }).status;
    assert.deepEqual(st.pool.map((e) => e.id), ['random', 'defensive', 'aggressive', 'minimax', 'champion-1']);
    assert.equal(Object.values(st.weights).filter((w) => w === 2).length, 1, 'one opponent carries the weakness pressure');

    assert.equal(pf(ws, 'pool', 'pin', 'champion-1').code, 0);
    const drop = pf(ws, 'pool', 'drop', 'champion-1');
    assert.equal(drop.code, 1);
    assert.match(drop.err, /pinned/);
    assert.equal(pf(ws, 'pool', 'pin').code, 2, 'no opponent id: an argument error');

    const finish = pf(ws, 'finish');
    assert.equal(finish.code, 0, finish.err);
    assert.match(finish.out, /against hidden opponents never seen in the run: win rate \d+%/);
    assert.match(finish.out, /against the final pool: win rate \d+%/);
    const report = parseArenaReport(fs.readFileSync(path.join(ws, '.policyforge', 'report.json'), 'utf8'));
    assert.ok(report.ok, report.ok ? '' : report.error);
    assert.ok(report.value.assessment, 'a selected submission is assessed');
    assert.ok(report.value.assessment.hidden.games > 0 && report.value.assessment.finalPool.games > 0);
    assert.ok(report.value.assessment.hidden.opponents.length > 0);
    assert.equal(report.value.trigger, 'request');
  });
});
