/**
 * The last generation of each evolved arena lineage (examples/arena/) beats every built-in
 * opponent of its game: more than half the games won against each, on a fixed set of seeds with
 * both seats. Policies, opponents and games are all deterministic given the seeds, so the record
 * is the same on every run.
 */
import { strict as assert } from 'node:assert';
import { evaluateAgainstBuiltIns, formatRecords, type SidePolicyClass } from '../../../examples/arena/evaluate';
import { Policy as ConnectFour } from '../../../examples/arena/connect-four/gen-4/policy';
import { Policy as CaptureTheFlag } from '../../../examples/arena/ctf/gen-7/policy';

const LINEAGES: { game: string; policy: SidePolicyClass; opponents: string[] }[] = [
  { game: 'ConnectFour-v0', policy: ConnectFour, opponents: ['random', 'defensive', 'aggressive', 'minimax'] },
  { game: 'CaptureTheFlag-v0', policy: CaptureTheFlag, opponents: ['random', 'defensive', 'aggressive', 'planner'] },
];

describe('evolved arena policies (examples/arena)', function () {
  this.timeout(120_000);

  for (const { game, policy, opponents } of LINEAGES) {
    it(`the last ${game} generation wins most games against every built-in opponent`, () => {
      const records = evaluateAgainstBuiltIns(game, policy, 4, 11);
      assert.deepEqual(records.map((r) => r.opponent), opponents, 'every built-in opponent is played');
      for (const r of records) {
        assert.equal(r.games, 4);
        assert.ok(r.W > r.games / 2, `${game}: ${r.W}/${r.games} wins against ${r.opponent}\n${formatRecords(records)}`);
      }
    });
  }
});
