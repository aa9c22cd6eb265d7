/** The Box2D starters type-check against their generated env.d.ts for every action space, and AGENTS.md explains each id. */
import * as assert from 'node:assert/strict';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle } from '../../../src/sandbox';
import { removeWorkspaces, workspace } from '../sandbox/helpers';

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

  it('AGENTS.md carries each family section', () => {
    for (const [id, heading] of [['LunarLander-v3', 'LunarLander-v3'], ['BipedalWalker-v3', 'BipedalWalker-v3'], ['CarRacing-v3', 'CarRacing-v3']] as const) {
      const def = registry.get(id);
      assert.ok(def.guide?.includes(`## Observation and action (${heading}`), id);
      assert.match(def.guide ?? '', /observation/);
    }
    assert.equal(typeof agentsMd, 'function');
  });
});
