/**
 * `policyforge envs --family` takes family prefixes and parts of ids and suggests when nothing
 * matches; `policyforge init` lists only the files an agent may read.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { envsCommand } from '../../../src/cli/commands/envs';
import { initCommand } from '../../../src/cli/commands/init';
import { createRegistry } from '../../../src/envs';
import { matchEnvironments, suggestQueries } from '../../../src/envs/core/envSearch';
import { capture } from './cliHelpers';

const ids = (json: string): string[] => (JSON.parse(json) as { id: string }[]).map((r) => r.id);

describe('cli: envs --family and init', function () {
  this.timeout(60_000);
  const defs = createRegistry().list();

  it('matches family prefixes and parts of ids, case ignored', () => {
    const of = (q: string): string[] => matchEnvironments(defs, q).map((d) => d.id);
    assert.ok(of('KeyCorridor').length >= 6);
    assert.ok(of('KeyCorridor').every((id) => id.includes('KeyCorridor')));
    assert.deepEqual(of('MiniGrid-DoorKey'), defs.filter((d) => d.id.startsWith('MiniGrid-DoorKey')).map((d) => d.id));
    assert.deepEqual(of('classic/cartpole'), ['CartPole-v1']);
    assert.deepEqual(of('cartpole'), ['CartPole-v1']);
    assert.equal(of('minigrid').length, defs.filter((d) => d.family.startsWith('minigrid')).length);
  });

  it('suggests the nearest matching queries by edit distance, and none for nonsense', () => {
    assert.deepEqual(suggestQueries(defs, 'KeyCoridor')[0], 'KeyCorridor');
    assert.deepEqual(suggestQueries(defs, 'MiniGrid-DorKey')[0], 'MiniGrid-DoorKey');
    assert.deepEqual(suggestQueries(defs, 'minigird')[0], 'minigrid');
    assert.deepEqual(suggestQueries(defs, 'Acrobt'), ['Acrobot']);
    assert.deepEqual(suggestQueries(defs, 'qqqqqqq'), []);
    for (const q of ['KeyCoridor', 'MiniGrid-DorKey', 'hoper', 'lunr']) for (const s of suggestQueries(defs, q)) assert.ok(matchEnvironments(defs, s).length > 0, s);
  });

  it('policyforge envs --family KeyCorridor and MiniGrid-DoorKey list those environments', async () => {
    const a = await capture(() => envsCommand.run(['--family', 'KeyCorridor', '--json']));
    assert.equal(a.code, 0);
    assert.deepEqual(ids(a.out), matchEnvironments(defs, 'KeyCorridor').map((d) => d.id));
    const b = await capture(() => envsCommand.run(['--family', 'MiniGrid-DoorKey']));
    assert.equal(b.code, 0);
    assert.match(b.out, /^MiniGrid-DoorKey-5x5-v0 {2}\[minigrid\]/m);
    assert.match(b.out, /\n4 environments\n$/);
  });

  it('policyforge envs states each environment\'s failure return, in the text and in --json', async () => {
    const t = await capture(() => envsCommand.run(['--family', 'classic']));
    assert.equal(t.code, 0, t.err);
    assert.match(t.out, /^Acrobot-v1 .*\n(?:.*\n){3} {2}steps: 500 {2}failure return: -500 /m);
    assert.match(t.out, /^MountainCar-v0 .*\n(?:.*\n){3} {2}steps: 200 {2}failure return: -200 /m);
    assert.match(t.out, /^CartPole-v1 .*\n(?:.*\n){3} {2}steps: 500 {2}failure return: 0 /m);
    const j = await capture(() => envsCommand.run(['--family', 'minigrid', '--json']));
    const rows = JSON.parse(j.out) as { id: string; failureReturn: number | null }[];
    assert.ok(rows.length > 100);
    assert.ok(rows.every((r) => r.failureReturn === 0), 'every MiniGrid and BabyAI level fails at 0');
  });

  it('policyforge envs --family with no match fails and names the nearest queries', async () => {
    const r = await capture(() => envsCommand.run(['--family', 'KeyCoridor']));
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /no environment's family starts with "KeyCoridor" and no id contains it; did you mean --family KeyCorridor/);
  });

  it('policyforge init lists the files it wrote for the agent, none under .policyforge/', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-init-'));
    try {
      const text = await capture(() => initCommand.run(['--env', 'CartPole-v1', '--budget', '16', dir]));
      assert.equal(text.code, 0, text.err);
      assert.doesNotMatch(text.out, /\.policyforge/);
      const listed = /files: (.*)\n/.exec(text.out)?.[1]?.split(', ') ?? [];
      assert.ok(listed.includes('AGENTS.md') && listed.includes('policy/policy.ts') && listed.includes('policy/env.d.ts'), text.out);
      for (const f of listed) assert.ok(fs.existsSync(path.join(dir, f)), f);
      assert.ok(fs.existsSync(path.join(dir, '.policyforge', 'run.json')));
      const json = await capture(() => initCommand.run(['--env', 'CartPole-v1', '--budget', '16', '--force', '--json', dir]));
      const files = (JSON.parse(json.out) as { files: string[] }).files;
      assert.deepEqual(files, listed);
      assert.ok(files.every((f) => !f.startsWith('.policyforge')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
