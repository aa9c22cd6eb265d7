/** Records cross the worker channel as JSON plus raw trajectory strings, and come out as they went in. */
import { strict as assert } from 'node:assert';
import { deserialize, serialize } from 'node:v8';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { packRecords, unpackRecords, type FinishedRecord } from '../../../src/sandbox/worker/recordWire';

const record = (caseIndex: number, ret: number, stepsJsonl: string): EpisodeRecord => ({
  caseIndex,
  status: 'ok',
  return: ret,
  length: 2,
  terminated: true,
  truncated: false,
  wallMs: 0.25,
  trajectory: { stepsJsonl, stepCount: stepsJsonl === '' ? 0 : 2, truncated: false, initialSnapshot: { x: [1, 2] } },
  log: { text: 'said "hi"\n', truncated: false },
});

/** Through the channel's own serializer, as the IPC channel does it. */
const acrossChannel = (done: FinishedRecord[]): FinishedRecord[] => unpackRecords(deserialize(serialize(packRecords(done))) as ReturnType<typeof packRecords>);

describe('sandbox: records on the worker channel', () => {
  it('arrive equal to what was sent, trajectory lines included, and the sender keeps its records intact', () => {
    const done = [
      { job: 3, record: record(0, 12.5, '{"observation":[0.1,"NaN"],"action":1}\n{"observation":[0.2],"action":0}') },
      { job: 4, record: record(1, -0.5, '') },
    ];
    const copy = structuredClone(done);
    assert.deepEqual(acrossChannel(done), copy);
    assert.deepEqual(done, copy);
  });

  it('keep a return that JSON cannot hold (infinite, NaN)', () => {
    const done = [
      { job: 1, record: record(0, -Infinity, '{"a":1}') },
      { job: 2, record: record(1, NaN, '') },
    ];
    const got = acrossChannel(done);
    assert.equal(got[0]?.record.return, -Infinity);
    assert.ok(Number.isNaN(got[1]?.record.return));
    assert.equal(got[0]?.record.trajectory.stepsJsonl, '{"a":1}');
  });
});
