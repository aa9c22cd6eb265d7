/**
 * The AGENTS.md that `policyforge init` writes states the step limit of an environment that
 * truncates episodes itself as an instance with the run's parameters reports it: MiniGrid's
 * max_steps for the level and size, BabyAI's range over the instructions a level draws. Ids with
 * a fixed step limit keep it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initCommand } from '../../../src/cli/commands/init';
import { createRegistry } from '../../../src/envs';
import { capture } from '../cli/cliHelpers';

const registry = createRegistry();
const dirs: string[] = [];

/** The Environment line of the AGENTS.md a real `policyforge init` writes (with the rest of the AGENTS.md). */
async function initAgentsMd(...args: string[]): Promise<{ line: string; md: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-agentsmd-steps-'));
  dirs.push(dir);
  const r = await capture(() => initCommand.run([...args, '--budget', '16', dir]));
  assert.equal(r.code, 0, r.err);
  const md = fs.readFileSync(path.join(dir, 'AGENTS.md'), 'utf8');
  const line = /^- Environment: [^]*?(?=\n- )/m.exec(md)?.[0].replace(/\s+/g, ' ') ?? '';
  assert.ok(line, 'AGENTS.md has an Environment line');
  return { line, md };
}

/** The limits an instance made with `params` gives the policy after each of a few resets. */
function observedLimits(id: string, params: Record<string, unknown>, seeds: number): number[] {
  const { env } = registry.make(id, params);
  const seen = new Set<number>();
  for (let seed = 0; seed < seeds; seed++) {
    env.reset({ seed });
    const limit = env.stepLimit();
    assert.ok(limit !== null, `${id} reports no limit after a reset`);
    seen.add(limit);
  }
  return [...seen].sort((a, b) => a - b);
}

describe('AGENTS.md: the step limit an environment sets itself', function () {
  this.timeout(60_000);
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('DoorKey-8x8: the max_steps its instance reports, and the one for a size the run sets', async () => {
    const id = 'MiniGrid-DoorKey-8x8-v0';
    const [steps] = observedLimits(id, {}, 3);
    assert.equal(steps, 10 * 8 * 8);
    const { line } = await initAgentsMd('--env', id);
    assert.ok(line.includes(`at most ${steps} steps per episode (MiniGrid's \`max_steps\` for this level with the run's parameters)`), line);
    assert.doesNotMatch(line, /its own limit/);

    const [sized] = observedLimits(id, { size: 12 }, 3);
    assert.equal(sized, 10 * 12 * 12);
    const custom = await initAgentsMd('--env', id, '--param', 'size=12');
    assert.ok(custom.line.includes(`at most ${sized} steps per episode`), custom.line);
    assert.match(custom.line, /parameters size=12/);
  });

  it('BossLevel: the range of limits its resets fall in, with the rule', async () => {
    const id = 'BabyAI-BossLevel-v0';
    const range = registry.make(id).env.stepLimitRange()!;
    assert.ok(range.min < range.max && range.rule, JSON.stringify(range));
    const seen = observedLimits(id, {}, 30);
    assert.ok(seen[0]! >= range.min && seen.at(-1)! <= range.max && seen.length > 1, `resets gave ${seen.join(',')}`);
    const { line } = await initAgentsMd('--env', id);
    assert.ok(line.includes(`${range.min}–${range.max} steps per episode depending on the episode (${range.rule}; \`ctx.maxEpisodeSteps\` gives the episode's own)`), line);
    assert.equal(range.rule, `${range.min} per navigation the instruction needs`);
  });

  it('a BabyAI level whose parameters narrow the instructions states the narrower range', async () => {
    const id = 'BabyAI-BossLevel-v0';
    const params = { instr_kinds: 'action', action_kinds: 'goto' };
    const range = registry.make(id, params).env.stepLimitRange()!;
    assert.deepEqual(observedLimits(id, params, 10), [range.max]);
    const { line } = await initAgentsMd('--env', id, '--param', 'instr_kinds=action', '--param', 'action_kinds=goto');
    assert.ok(line.includes(`at most ${range.max} steps per episode (MiniGrid's`), line);
  });

  it('an id with a fixed maxEpisodeSteps keeps its number', async () => {
    assert.equal(registry.get('CartPole-v1').maxEpisodeSteps, 500);
    const { line } = await initAgentsMd('--env', 'CartPole-v1');
    assert.match(line, /^- Environment: at most 500 steps per episode, reward range/);
  });
});
