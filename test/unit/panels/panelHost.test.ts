/** The panel host's pure parts: live diagnostics from summaries, and action names per environment. */
import assert from 'node:assert/strict';
import { runDiagnostics } from '../../../src/analysis/diagnostics';
import { ACTION } from '../../../src/envs/minigrid/constants';
import { actionNamesOf } from '../../../src/extension/panels/actionNames';
import { liveDiagnostics } from '../../../src/extension/panels/liveDiagnostics';
import { makeRun } from '../webview/fixtures';

describe('panel host', () => {
  describe('liveDiagnostics', () => {
    const subs = makeRun({ submissions: 10, episodes: 4, failRate: 0.2 });

    it('is nothing before the first submission', () => {
      assert.equal(liveDiagnostics([]), null);
    });

    it('counts each summary’s edit class and follows its recorded parent', () => {
      const d = liveDiagnostics([...subs].reverse())!;
      assert.equal(d.submissions, subs.length);
      for (const c of ['initial', 'identical', 'parametric', 'structural'] as const) assert.equal(d.editShare.counts[c], subs.filter((s) => s.edit?.class === c).length, c);
      assert.deepEqual(d.trainProgress.map((p) => p.submission), subs.map((s) => s.submission));
      // No checkpoint metrics while the run goes on: those come with the report.
      assert.deepEqual(d.complexity, []);
      assert.equal(d.validationProgress, null);
    });

    it('takes the previous submission as the parent when an edit analysis is missing', () => {
      const gap = subs.map((s, i) => (i === 4 ? { ...s, edit: undefined } : s));
      const d = liveDiagnostics(gap)!;
      assert.equal(d.editShare.counts.unknown, 1);
      assert.equal(d.editShare.counts.initial, 1, 'a missing edit is not mistaken for a first submission');
      const expected = runDiagnostics(gap.map((s, i) => ({ submission: s.submission, parent: s.edit ? s.edit.parent : i === 0 ? null : gap[i - 1]!.submission, budgetUsed: s.budget.used, trainMean: s.stats.mean, edit: s.edit ?? null, metrics: null })));
      assert.deepEqual(d, expected);
    });
  });

  describe('actionNamesOf', () => {
    it('names MiniGrid actions by their index in the action table', () => {
      const names = actionNamesOf('MiniGrid-DoorKey-8x8-v0', 'minigrid')!;
      for (const [name, index] of Object.entries(ACTION)) assert.equal(names[index], name);
      assert.equal(names.length, Object.keys(ACTION).length);
    });

    it('names the driving environments’ meta-actions, and nothing for continuous control', () => {
      assert.deepEqual(actionNamesOf('highway-v0', 'highway'), ['LANE_LEFT', 'IDLE', 'LANE_RIGHT', 'FASTER', 'SLOWER']);
      assert.equal(actionNamesOf('parking-v0', 'highway/parking'), undefined);
      assert.equal(actionNamesOf('no-such-env-v0', 'highway'), undefined);
    });

    it('names the classic discrete actions and nothing for continuous ones', () => {
      assert.deepEqual(actionNamesOf('CartPole-v1', 'classic/cartpole'), ['push left', 'push right']);
      assert.equal(actionNamesOf('MountainCar-v0', 'classic/mountaincar')?.length, 3);
      assert.equal(actionNamesOf('Pendulum-v1', 'classic/pendulum'), undefined);
      assert.equal(actionNamesOf('MountainCarContinuous-v0', 'classic/mountaincar'), undefined);
    });
  });
});
