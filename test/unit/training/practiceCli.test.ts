import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initWorkspace } from '../../../src/runner/workspace';
import { createRegistry } from '../../../src/envs';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { CLI, cleanupTmp, tmpDir, useTempDataDir } from '../runner/helpers';
import { pf } from '../cli/cliHelpers';

describe('practice from the CLI: propose, then submit --config (built CLI, real runner)', function () {
  this.timeout(300_000);
  let dir = '';
  before(() => {
    assert.ok(fs.existsSync(CLI));
    useTempDataDir();
    dir = tmpDir('practice-cli');
    const r = initWorkspace(dir, { envId: 'MiniGrid-DoorKey-8x8-v0', budget: 16, practiceBudget: 8, validationCases: 2, heldOutCases: 2 }, createRegistry());
    assert.ok(r.ok);
  });
  after(() => {
    const f = readRunnerFile(dir);
    if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    cleanupTmp();
  });

  it('writes a proposal from the skill rates, practises it on the practice budget, and refuses bad files uncharged', () => {
    const none = pf(dir, 'propose');
    assert.equal(none.code, 1, none.err);
    assert.match(none.err, /no run submission yet/);

    assert.equal(pf(dir, 'submit', '--episodes', '4').code, 0);
    const proposed = pf(dir, 'propose', '--json');
    assert.equal(proposed.code, 0, proposed.err);
    const p = proposed.json() as { file: string; config: { env: string; params: Record<string, unknown>; reason: string } };
    assert.equal(p.file, path.join(dir, 'practice', 'proposal.json'));
    assert.equal(p.config.env, 'MiniGrid-DoorKey-8x8-v0');
    assert.deepEqual(JSON.parse(fs.readFileSync(p.file, 'utf8')), p.config);

    const practice = pf(dir, 'submit', '--config', 'practice/proposal.json', '--episodes', '4');
    assert.equal(practice.code, 0, practice.err);
    assert.match(practice.out, /^practice submission 2 /);
    assert.match(practice.out, /practice budget 4\/8 used, 4 remaining \(the main budget is untouched\)/);

    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ params: { size: 3 } }));
    const bad = pf(dir, 'submit', '--config', 'bad.json', '--episodes', '2', '--json');
    assert.equal(bad.code, 2, 'a refused configuration is an argument error');
    assert.match(String((bad.json() as { error: { message: string } }).error.message), /parameter "size" is outside its bounds \(size: integer 5\.\.16\), got 3/);
    fs.writeFileSync(path.join(dir, 'notjson.json'), '{ params');
    assert.equal(pf(dir, 'submit', '--config', 'notjson.json', '--episodes', '2').code, 2);

    const st = pf(dir, 'status', '--json').json() as { status: { budget: { used: number }; practice: { budget: { used: number } } } };
    assert.equal(st.status.budget.used, 4);
    assert.equal(st.status.practice.budget.used, 4);
    assert.match(pf(dir, 'status').out, /practice budget 4\/8 used, 4 remaining {3}practice submissions #2 \(never selected\)/);
  });
});
