/**
 * Skills end to end below the runner: episodes run in the sandbox carry their skill outcomes,
 * and a submission's feedback text lists the weakest skills first.
 */
import { strict as assert } from 'node:assert';
import { SandboxPool } from '../../../src/sandbox';
import { declaredSkills } from '../../../src/skills';
import { skillRates } from '../../../src/skills/rates';
import { formatSummary } from '../../../src/stats/feedbackText';
import type { SubmissionSummary } from '../../../src/protocol/feedback';
import { parseSubmissionSummary } from '../../../src/protocol/documents';
import { bundleOf, episodes, GOOD_CARTPOLE, usePool } from '../sandbox/helpers';

/** Picks up whatever is in front, otherwise wanders: it finds the key in some DoorKey worlds only. */
const WANDER = `export class Policy {
  private t = 0;
  act(o: { image: Uint8Array }): number {
    this.t++;
    // The cell in front of the agent is view cell (3, 5): index (3 * 7 + 5) * 3.
    const front = o.image[(3 * 7 + 5) * 3]!;
    if (front === 5) return 3;
    return Math.random() < 0.6 ? 2 : Math.random() < 0.5 ? 0 : 1;
  }
}
`;

describe('skills: sandbox episodes and feedback', function () {
  this.timeout(60_000);
  const pool: () => SandboxPool = usePool({ workers: 1 });

  it('DoorKey episodes carry every declared MiniGrid skill, measured outside the policy', async () => {
    const records = await pool().runBatch({ bundle: await bundleOf(WANDER), envId: 'MiniGrid-DoorKey-5x5-v0', params: {}, episodes: episodes(12), limits: { maxTrajectorySteps: 0 } });
    const ids = declaredSkills('MiniGrid-DoorKey-5x5-v0', 'minigrid').map((d) => d.id);
    for (const r of records) {
      assert.equal(r.status, 'ok');
      assert.deepEqual(Object.keys(r.skills ?? {}).sort(), [...ids].sort());
      // DoorKey has a key, a locked door and a goal in every world; no lava, no box.
      assert.equal(r.skills!['avoided_lava'], null);
      assert.equal(r.skills!['opened_box'], null);
      assert.ok(r.skills!['picked_up_key'] === 0 || r.skills!['picked_up_key'] === 1);
      if (r.skills!['reached_goal'] === 1) assert.equal(r.skills!['unlocked_door'], 1);
      assert.equal(r.skills!['reached_goal'], r.return > 0 ? 1 : 0);
    }
    const rates = skillRates(declaredSkills('MiniGrid-DoorKey-5x5-v0', 'minigrid'), records);
    assert.ok(rates.some((r) => r.id === 'picked_up_key' && r.count === 12));
  });

  it('feedback text lists skills weakest first, and summary.json with skills parses', async () => {
    const records = await pool().runBatch({ bundle: await bundleOf(GOOD_CARTPOLE), envId: 'CartPole-v1', params: {}, episodes: episodes(4), limits: { maxTrajectorySteps: 0 } });
    const summary: SubmissionSummary = {
      submission: 1,
      checkpoint: 'abc',
      createdAt: new Date(0).toISOString(),
      envId: 'CartPole-v1',
      cases: [0, 1, 2, 3],
      episodes: records.map(({ trajectory: _t, log: _l, ...e }) => e),
      stats: { mean: 500, std: 0, stderr: 0, min: 500, max: 500, okCount: 4, count: 4 },
      statusCounts: { ok: 4 },
      wallMs: 1,
      budget: { total: 100, used: 4, remaining: 96 },
      skills: [
        { id: 'full_episode', label: 'balanced the whole episode', kind: 'success', mean: 1, stderr: 0, count: 4 },
        { id: 'time_upright', label: 'share of steps upright', kind: 'fraction', mean: 0.25, stderr: 0.05, count: 4 },
      ],
      files: { trajectories: [], logs: [], evicted: false },
    };
    const parsed = parseSubmissionSummary(JSON.stringify(summary));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.ok(records.every((r) => typeof r.skills?.['time_upright'] === 'number'));
    const text = formatSummary(summary, []);
    const at = (s: string): number => text.indexOf(s);
    assert.ok(at('skills (weakest first') > 0, text);
    assert.ok(at('share of steps upright 25% ± 5% (n 4)') > 0 && at('share of steps upright') < at('balanced the whole episode 100%'), text);
  });
});
