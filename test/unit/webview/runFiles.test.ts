/** The panels' reader of run files, against real files in a temp workspace. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTrajectory, readRunFiles, readTrajectory } from '../../../src/extension/panels/runFiles';
import { makeReport, makeRun, makeTrajectory } from './fixtures';

describe('panel run files', () => {
  let root: string;
  const subs = makeRun({ submissions: 3, episodes: 2 });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pf-panels-'));
    for (const s of subs) {
      const dir = join(root, 'feedback', `submit-${String(s.submission).padStart(4, '0')}`);
      mkdirSync(join(dir, 'episodes'), { recursive: true });
      writeFileSync(join(dir, 'summary.json'), JSON.stringify(s));
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads every summary in order and the report, and reports a bad file instead of failing', async () => {
    mkdirSync(join(root, '.policyforge'));
    writeFileSync(join(root, '.policyforge', 'report.json'), JSON.stringify(makeReport(subs)));
    mkdirSync(join(root, 'feedback', 'submit-0004'));
    writeFileSync(join(root, 'feedback', 'submit-0004', 'summary.json'), '{"submission": 4}');
    mkdirSync(join(root, 'feedback', 'submit-0005')); // still being written: no summary yet
    const f = await readRunFiles(root);
    assert.deepEqual(f.summaries.map((s) => s.submission), [1, 2, 3]);
    assert.equal(f.report?.selected, makeReport(subs).selected);
    assert.equal(f.envId, 'CartPole-v1');
    assert.equal(f.problems.length, 1);
    assert.match(f.problems[0]!, /submit-0004.*checkpoint/);
  });

  it('reads the runner’s JSONL trajectories (header line, then one step per line)', async () => {
    const s = subs[1]!;
    const t = makeTrajectory('classic/cartpole', 5);
    const lines = [JSON.stringify({ caseIndex: s.cases[0], status: 'ok', return: 5, length: 5, terminated: true, truncated: false, trajectoryTruncated: false, initialSnapshot: { x: 0, theta: 0.01 } }), ...t.steps.map((x) => JSON.stringify(x))];
    writeFileSync(join(root, s.files.trajectories[0]!), `${lines.join('\n')}\n`);
    const r = await readTrajectory(root, s, s.cases[0]!);
    assert.ok('trajectory' in r);
    assert.equal(r.trajectory.steps.length, 5);
    assert.deepEqual(r.trajectory.initialSnapshot, { x: 0, theta: 0.01 });
    assert.deepEqual(r.trajectory.steps[2], t.steps[2]);
    const missing = await readTrajectory(root, s, s.cases[1]!);
    assert.ok('problem' in missing && /No trajectory file for case/.test(missing.problem));
  });

  it('accepts a single JSON document too and names the bad line of a broken file', () => {
    const t = makeTrajectory('classic/pendulum', 3);
    const whole = parseTrajectory(JSON.stringify(t));
    assert.equal(typeof whole === 'string' ? whole : whole.steps.length, 3);
    const record = parseTrajectory(JSON.stringify({ caseIndex: 1, trajectory: t }));
    assert.equal(typeof record === 'string' ? record : record.steps.length, 3);
    assert.match(parseTrajectory(`{"caseIndex":1}\n${JSON.stringify(t.steps[0])}\n{oops\n`) as string, /line 3 is not JSON/);
    assert.match(parseTrajectory(`{"caseIndex":1}\n{"reward":"x"}\n`) as string, /line 2 is not a trajectory step/);
  });
});
