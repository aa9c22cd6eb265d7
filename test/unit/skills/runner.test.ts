/** A real runner (in-process host, real sandbox): summary.json carries each skill's rate and feedback names them. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSubmissionSummary } from '../../../src/protocol/documents';
import { formatSummary } from '../../../src/stats/feedbackText';
import { cartPolicy, connect, makeWorkspace, startHost, useInProcessRunners, writePolicy } from '../runner/helpers';

describe('skills: in the runner feedback', function () {
  this.timeout(60_000);
  useInProcessRunners();

  it('summary.json has every CartPole skill with its rate and standard error, and the text shows them', async () => {
    const dir = makeWorkspace({ budget: 32 });
    const host = await startHost(dir);
    try {
      const client = await connect(host);
      writePolicy(dir, cartPolicy(0.5));
      const summary = await client.submit({ cases: '0-7' });
      const onDisk = parseSubmissionSummary(fs.readFileSync(path.join(dir, 'feedback', 'submit-0001', 'summary.json'), 'utf8'));
      assert.ok(onDisk.ok);
      const skills = onDisk.value.skills ?? [];
      assert.deepEqual(skills.map((s) => s.id).sort(), ['full_episode', 'time_upright']);
      for (const s of skills) {
        assert.equal(s.count, 8);
        assert.ok(s.mean >= 0 && s.mean <= 1 && s.stderr >= 0);
      }
      // The rate is the mean of the per-episode outcomes the summary lists.
      const full = summary.episodes.map((e) => e.skills?.['full_episode']);
      assert.equal(skills.find((s) => s.id === 'full_episode')!.mean, full.reduce((a, b) => a! + b!, 0)! / 8);
      assert.match(formatSummary(summary, []), /skills \(weakest first[^\n]*\n {4}\S/);
      await client.close();
    } finally {
      await host.close();
    }
  });
});
