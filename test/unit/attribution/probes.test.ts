/**
 * Coverage probes: found at every function body and branch of the policy's own code, mapped to
 * the right `policy/*.ts` lines through the bundle's source map, and the instrumented bundle runs
 * exactly like the plain one (same records, stack lines included) while saying which code ran.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { DEFAULT_EPISODE_LIMITS } from '../../../src/sandbox';
import { instrumentBundle } from '../../../src/sandbox/coverage/instrument';
import { bundleProbes } from '../../../src/sandbox/coverage/probes';
import { runEpisode } from '../../../src/sandbox/worker/episode';
import { loadBundle } from '../../../src/sandbox/worker/loadedBundle';
import { bundleOf, episodes, removeWorkspaces, strip } from '../sandbox/helpers';

const POLICY = `import { clamp } from './util';
export class Policy {
  private t = 0;
  act(o: Float64Array): number {
    this.t++;
    if (o[2]! > 0.05) {
      return 1;
    } else if (o[2]! < -0.05) {
      return 0;
    }
    switch (this.t % 3) {
      case 0:
        return clamp(o[3]!) > 0 ? 1 : 0;
      default:
        break;
    }
    for (let i = 0; i < 2; i++) this.t += 0;
    return o[3]! > 0 && o[2]! > -1 ? 1 : 0;
  }
}
`;
const UTIL = `export function clamp(x: number): number {
  try {
    return Math.max(-1, Math.min(1, x));
  } catch {
    return 0;
  }
}
`;

describe('attribution: coverage probes in the bundle', function () {
  this.timeout(60_000);
  after(() => removeWorkspaces());

  it('puts a probe at each function and branch of policy/ code, at its source line, and none in esbuild helpers', async () => {
    const { code } = await bundleOf(POLICY, { 'util.ts': UTIL });
    const { probes } = bundleProbes(code);
    const at = probes.map((p) => `${p.file}:${p.line} ${p.kind}${p.function ? ` ${p.function}` : ''}`);
    assert.deepEqual(at.sort(), [
      'policy/policy.ts:4 function Policy.act',
      'policy/policy.ts:6 then Policy.act',
      'policy/policy.ts:8 else Policy.act', // `else if …`: the inner if is the outer one's else
      'policy/policy.ts:8 then Policy.act',
      'policy/policy.ts:12 case Policy.act',
      'policy/policy.ts:13 ternary-then Policy.act',
      'policy/policy.ts:13 ternary-else Policy.act',
      'policy/policy.ts:14 case Policy.act',
      'policy/policy.ts:17 loop Policy.act',
      'policy/policy.ts:18 right-operand Policy.act',
      'policy/policy.ts:18 ternary-then Policy.act',
      'policy/policy.ts:18 ternary-else Policy.act',
      'policy/util.ts:1 function clamp',
      'policy/util.ts:4 catch clamp',
    ].sort());
    assert.deepEqual(probes.map((p) => p.id), probes.map((_, i) => i));
  });

  it('runs the instrumented bundle as the plain one and reports the probes that ran', async () => {
    const { code } = await bundleOf(POLICY, { 'util.ts': UTIL });
    const registry = createRegistry();
    const limits = { ...DEFAULT_EPISODE_LIMITS, maxTrajectorySteps: 100 };
    const plain = loadBundle(code);
    const covered = loadBundle(code);
    const { probes } = bundleProbes(code);
    for (const spec of episodes(4)) {
      const a = runEpisode({ envId: 'CartPole-v1', params: {}, spec, limits }, registry, plain, () => {});
      const b = runEpisode({ envId: 'CartPole-v1', params: {}, spec, limits: { ...limits, coverage: true } }, registry, covered, () => {});
      assert.equal(a.coverage, undefined);
      const { coverage, ...rest } = strip(b);
      assert.deepEqual(rest, strip(a));
      const ran = new Set((coverage ?? []).map((id) => `${probes[id]!.line} ${probes[id]!.kind}`));
      // Every act runs its body and the loop; the catch never runs.
      assert.ok(ran.has('4 function') && ran.has('17 loop'), [...ran].join(', '));
      assert.ok(!ran.has('4 catch'));
    }
  });

  it('maps a stack frame of the instrumented bundle to the same policy line and column as the plain one', async () => {
    const thrower = POLICY.replace('return 1;\n    } else if', 'return (null as unknown as { x: number }).x;\n    } else if');
    const { code } = await bundleOf(thrower, { 'util.ts': UTIL });
    const registry = createRegistry();
    const limits = { ...DEFAULT_EPISODE_LIMITS, maxTrajectorySteps: 0 };
    const errors = [false, true].map((coverage) => {
      const bundle = loadBundle(code);
      return episodes(6).map((spec) => runEpisode({ envId: 'CartPole-v1', params: {}, spec, limits: { ...limits, coverage } }, registry, bundle, () => {}).error);
    });
    assert.ok(errors[0]!.some((e) => e?.location?.line === 7), JSON.stringify(errors[0]));
    assert.deepEqual(errors[1], errors[0]);
  });

  it('leaves a bundle that names the counters parameter without probes', async () => {
    const { code } = await bundleOf(`export class Policy { act(): number { const __policyforge_coverage = 1; return __policyforge_coverage > 0 ? 1 : 0; } }`);
    const inst = instrumentBundle(code);
    assert.equal(inst.probes, 0);
    assert.equal(inst.code, code);
  });
});
