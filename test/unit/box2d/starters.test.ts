/** The Box2D starters type-check against their generated env.d.ts for every action space, and AGENTS.md explains each id. */
import * as assert from 'node:assert/strict';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { makeRunConfig } from '../../../src/runner/config';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle } from '../../../src/sandbox';
import { removeWorkspaces, workspace } from '../sandbox/helpers';
import { record } from './deltaFixture';

const registry = createRegistry();
const CASES: [string, Record<string, unknown>][] = [
  ['LunarLander-v3', {}],
  ['LunarLander-v3', { continuous: true }],
  ['LunarLanderContinuous-v3', {}],
  ['BipedalWalker-v3', {}],
  ['BipedalWalkerHardcore-v3', {}],
  ['CarRacing-v3', {}],
  ['CarRacing-v3', { continuous: false }],
];

describe('Box2D starters and guides', function () {
  this.timeout(120_000);
  after(removeWorkspaces);

  for (const [id, params] of CASES) {
    it(`${id} ${JSON.stringify(params)}: the starter builds with no type errors`, async () => {
      const made = registry.make(id, params);
      const built = await buildBundle(workspace(starterFiles(made.definition, made.params, made.env)));
      assert.ok(built.ok, `${id}: ${built.ok ? '' : built.diagnostics.map((d) => d.message).join('; ')}`);
      // Type errors never block a build; a starter must have none.
      assert.deepEqual(built.diagnostics.filter((d) => d.kind === 'type').map((d) => `${d.file}:${d.line} ${d.message}`), []);
    });
  }

  it('AGENTS.md explains each id and names every field of its stored trajectory lines', function () {
    this.timeout(60_000);
    for (const id of ['LunarLander-v3', 'LunarLanderContinuous-v3', 'BipedalWalker-v3', 'BipedalWalkerHardcore-v3', 'CarRacing-v3']) {
      const made = makeRunConfig({ envId: id, params: {} } as Parameters<typeof makeRunConfig>[0]);
      if (!made.ok) throw new Error(made.error);
      const md = agentsMd(registry.get(id), made.config);
      assert.match(md, new RegExp(`## Observation and action \\([^)]*${id.replace(/-/g, '\\-')}`), id);
      const { compact } = record(id, 2, 40);
      assert.ok(md.includes(`## Trajectory files (\`"format": "${compact.format}"\`)`), `${id}: the section names the format the recorder writes`);
      assert.match(md, /described under "Trajectory files" above/, `${id}: the generic file text defers to the section`);
      assert.doesNotMatch(md, /one line per step: `observation` \(as `act` saw it/, id);
      const keys = new Set(Object.keys(compact.initialSnapshot as object));
      for (const line of compact.stepsJsonl.split('\n')) for (const k of Object.keys(JSON.parse(line) as object)) keys.add(k);
      assert.deepEqual([...keys].filter((k) => !md.includes(`\`${k}\``)), [], id);
    }
  });
});
