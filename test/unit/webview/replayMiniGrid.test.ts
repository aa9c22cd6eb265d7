/**
 * A MiniGrid trajectory file holds the world once and each step's changes: the host reads it as
 * it is (runFiles), the message passes the webview's checks, and the replay model rebuilds every
 * plain step from it.
 */
import assert from 'node:assert/strict';
import { parseTrajectory } from '../../../src/extension/panels/runFiles';
import { checkHostMessage } from '../../../src/protocol/webview';
import { MINIGRID_DELTA_FORMAT } from '../../../src/protocol/minigridTrajectory';
import { plainSide } from '../../../webview-ui/replay/model';
import { record, trajectoryFileText } from '../minigrid/deltaFixture';

describe('replay of a MiniGrid trajectory stored as changes', () => {
  it('goes from the file through the host message to every plain step', () => {
    const { plain, compact } = record('MiniGrid-DoorKey-8x8-v0', 3);
    const parsed = parseTrajectory(trajectoryFileText(compact, plain.steps.length));
    assert.ok(typeof parsed !== 'string', String(parsed));
    assert.equal(parsed.format, MINIGRID_DELTA_FORMAT);
    const checked = checkHostMessage({ type: 'replay.load', envId: 'MiniGrid-DoorKey-8x8-v0', family: 'minigrid', caseIndex: 0, sides: [{ submission: 1, episode: null, trajectory: parsed }] });
    assert.ok(checked.ok, checked.ok ? '' : checked.error);
    const load = checked.value;
    assert.ok(load.type === 'replay.load');
    const side = plainSide(load.sides[0]!);
    assert.equal(side.problem, undefined);
    assert.deepEqual(side.trajectory?.initialSnapshot, plain.initialSnapshot);
    assert.deepEqual(side.trajectory?.steps, plain.steps);
  });

  it('shows a damaged file as the side’s problem, not a broken scene', () => {
    const { plain, compact } = record('MiniGrid-DoorKey-8x8-v0', 3, 4);
    const parsed = parseTrajectory(trajectoryFileText({ ...compact, initialSnapshot: { width: 8 } }, plain.steps.length));
    assert.ok(typeof parsed !== 'string');
    const side = plainSide({ submission: 1, episode: null, trajectory: parsed });
    assert.equal(side.trajectory, null);
    assert.match(side.problem ?? '', /could not be read: the header's initialSnapshot is not a MiniGrid world/);
  });
});
