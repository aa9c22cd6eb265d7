/**
 * A hardened realm hands its read-only globals to the bundle as parameters (a global lookup in a
 * vm context is far slower than a local). The policy must not be able to tell: the names it
 * declares itself stay its own, whatever form the declaration takes, and the globals it reads
 * are the realm's own values, the virtual clock included.
 */
import { strict as assert } from 'node:assert';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { bundleOf, episodes, usePool } from './helpers';

const ACT = `act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; }`;

describe('sandbox: global bindings', function () {
  this.timeout(60_000);
  const single = usePool({ workers: 1 });
  const lines = (r: EpisodeRecord | undefined): string[] => (r?.log.text ?? '').trim().split('\n');

  async function run(policy: string, n = 2): Promise<EpisodeRecord[]> {
    const records = await single().runBatch({ bundle: await bundleOf(policy), envId: 'CartPole-v1', params: {}, episodes: episodes(n), limits: { maxTrajectorySteps: 0 } });
    assert.deepEqual(records.map((r) => [r.status, r.error?.message]), records.map(() => ['ok', undefined]));
    return records;
  }

  it('reads the realm\'s own globals: the same objects as globalThis, the virtual clock per episode', async () => {
    const records = await run(`export class Policy {
  constructor(_ctx: any) {
    const g = globalThis as any;
    console.log(JSON.stringify({ same: Math === g.Math && Object === g.Object && Date === g.Date && performance === g.performance && Float64Array === g.Float64Array, now: [performance.now(), performance.now()], date: Date.now(), typed: new Float64Array(2) instanceof g.Float64Array }));
  }
  ${ACT}
}`);
    const seen = records.map((r) => JSON.parse(lines(r)[0]!) as { same: boolean; now: number[]; date: number; typed: boolean });
    for (const s of seen) assert.deepEqual({ same: s.same, typed: s.typed }, { same: true, typed: true });
    // The clock restarts each episode and advances per read, exactly as a looked-up global's would.
    assert.deepEqual(seen[0]!.now, seen[1]!.now);
    assert.ok(seen[0]!.now[1]! > seen[0]!.now[0]!);
    assert.equal(seen[0]!.date, seen[1]!.date);
  });

  it('names the policy declares itself stay its own, in every declaration form', async () => {
    const [r] = await run(`const Map = { kind: 'own map' };
class Set { kind = 'own set'; }
function Symbol(): string { return 'own symbol'; }
var JSON: { kind: string } | undefined;
const { Reflect } = { Reflect: 'own reflect' };
let [Proxy] = ['own proxy'];
export class Policy {
  constructor(_ctx: any) {
    console.log([Map.kind, new Set().kind, Symbol(), String(JSON), Reflect, Proxy, Math.max(1, 2)].join(' | '));
  }
  ${ACT}
}`, 1);
    assert.equal(lines(r)[0], 'own map | own set | own symbol | undefined | own reflect | own proxy | 2');
  });
});
