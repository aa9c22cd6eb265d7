/** The panel message checks both ends run (src/protocol/webview.ts): what they accept and how they name a bad field. */
import assert from 'node:assert/strict';
import { checkHostMessage, checkPanelState, checkWebviewMessage, hostToWebviewSchema } from '../../../src/protocol/webview';
import { makeReport, makeRun, makeTrajectory } from './fixtures';

describe('webview protocol schemas', () => {
  it('accepts what the host schemas accept and names the field that is wrong', () => {
    const subs = makeRun({ submissions: 6, episodes: 4, failRate: 0.3 });
    const snapshot = { type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: subs[5]!.budget, submissions: subs, report: makeReport(subs), activity: null };
    assert.equal(hostToWebviewSchema.safeParse(snapshot).success, true);
    assert.equal(checkHostMessage(snapshot).ok, true);
    const load = { type: 'replay.load', envId: 'CartPole-v1', family: 'classic/cartpole', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: makeTrajectory('classic/cartpole', 20) }] };
    assert.equal(checkHostMessage(load).ok, true);
    const bad = checkHostMessage({ ...snapshot, submissions: [{ ...subs[0], stats: { ...subs[0]!.stats, mean: 'high' } }] });
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.error, /submissions\.0\.stats\.mean/);
    assert.match((checkHostMessage({ type: 'what' }) as { error: string }).error, /unknown message type "what"/);
    assert.equal(checkHostMessage('text').ok, false);
    assert.equal(checkHostMessage({ ...load, sides: [] }).ok, false, 'a replay needs a side');
  });

  it('checks outgoing messages and saved state', () => {
    assert.equal(checkWebviewMessage({ type: 'ready', panel: 'replay' }).ok, true);
    assert.equal(checkWebviewMessage({ type: 'openSource', file: 'policy/policy.ts', line: 0 }).ok, false, 'lines are 1-based');
    assert.equal(checkPanelState({ panel: 'replay', target: { submission: 2, caseIndex: 5 }, step: 10, speed: 2 }).ok, true);
    assert.equal(checkPanelState({ panel: 'replay', target: null, step: -1, speed: 2 }).ok, false);
  });
});
