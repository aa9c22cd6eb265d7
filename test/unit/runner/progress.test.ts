import assert from 'node:assert/strict';
import type { ProgressNotification } from '../../../src/protocol/run';
import { ProgressThrottle } from '../../../src/runner/progress';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const at = (done: number, submission = 1): ProgressNotification => ({ phase: 'submit', submission, done, total: 100 });

describe('runner: progress throttle', () => {
  it('sends a batch\'s first count at once, then the newest count at most once per interval, and the final count', async () => {
    const sent: number[] = [];
    const t = new ProgressThrottle((p) => sent.push(p.done), 40);
    t.update(at(0));
    assert.deepEqual(sent, [0], 'the first count at once');
    for (let i = 1; i <= 5; i++) t.update(at(i));
    assert.deepEqual(sent, [0], 'later counts wait for the interval');
    await sleep(60);
    assert.deepEqual(sent, [0, 5], 'the newest of them, once');
    t.update(at(6));
    t.update(at(7));
    t.finish();
    assert.deepEqual(sent, [0, 5, 7], 'the final count goes out when the batch ends');
    await sleep(60);
    assert.deepEqual(sent, [0, 5, 7], 'nothing twice');
  });

  it('a new batch does not wait for the last one\'s interval', () => {
    const sent: string[] = [];
    const t = new ProgressThrottle((p) => sent.push(`${p.submission}:${p.done}`), 10_000);
    t.update(at(0, 1));
    t.update(at(3, 1));
    t.update(at(0, 2));
    assert.deepEqual(sent, ['1:0', '2:0']);
    t.stop();
  });

  it('sends nothing more for a batch that was rolled back', async () => {
    const sent: number[] = [];
    const t = new ProgressThrottle((p) => sent.push(p.done), 20);
    t.update(at(0));
    t.update(at(1));
    t.stop();
    await sleep(40);
    t.finish();
    assert.deepEqual(sent, [0]);
  });
});
