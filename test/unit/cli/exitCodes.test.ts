import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { cartPolicy, cleanupTmp, CLI, killSpawnedRunners, makeWorkspace, readEvents, slowPolicy, spawnRunner, tmpDir, useTempDataDir, waitFor, writePolicy, INTERRUPTIBLE_ITERATIONS } from '../runner/helpers';
import { pf, pfAsync } from './cliHelpers';

/** One test per row of the exit-code table in src/cli/README.md. */
describe('cli: exit codes (src/cli/README.md)', function () {
  this.timeout(120_000);
  const workspaces: string[] = [];
  const ws = (config: Parameters<typeof makeWorkspace>[0] = {}): string => {
    const dir = makeWorkspace({ budget: 12, ...config });
    workspaces.push(dir);
    return dir;
  };
  before(() => {
    assert.ok(fs.existsSync(CLI), 'bin/policyforge.js');
    assert.ok(fs.existsSync(path.join(path.dirname(CLI), '..', 'dist', 'runnerProcess.js')), 'built (npm run build)');
    useTempDataDir();
  });
  after(() => {
    killSpawnedRunners();
    for (const dir of workspaces) {
      const f = readRunnerFile(dir);
      if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    }
    cleanupTmp();
  });

  it('0: the command did what it was asked', () => {
    const dir = ws();
    const r = pf(dir, 'submit', '--cases', '0-1');
    assert.equal(r.code, 0, r.err);
    assert.equal(pf(dir, 'status').code, 0);
  });

  it('1: a well-formed request the run refuses (strict submit with type errors, exhausted budget); nothing charged', () => {
    const dir = ws({ budget: 4 });
    writePolicy(dir, cartPolicy(0.5, 'const n: number = "x"; if (n === "y") return 0;'));
    const strict = pf(dir, 'submit', '--cases', '0-1', '--strict', '--json');
    assert.equal(strict.code, 1, strict.err);
    assert.equal((strict.json().error as { reason: string }).reason, 'type_errors');
    writePolicy(dir, cartPolicy(0.5));
    assert.equal(pf(dir, 'submit', '--cases', '0-3').code, 0);
    const spent = pf(dir, 'submit', '--cases', '0-1');
    assert.equal(spent.code, 1);
    assert.match(spent.err, /the agent phase is over|budget is exhausted/);
    const unknown = pf(dir, 'feedback', '7', '--json');
    assert.equal(unknown.code, 1);
    assert.equal((unknown.json().error as { reason: string }).reason, 'unknown_submission');
  });

  it('2: an argument error, whether the CLI or the runner catches it', () => {
    const dir = ws({ maxEpisodesPerSubmit: 8 });
    const cases: [string[], string | null][] = [
      [['submit'], null],
      [['feedback', 'x'], null],
      [['submit', '--episodes', '0'], null],
      [['submit', '--cases', 'abc', '--json'], 'malformed_request'],
      [['submit', '--cases', '3-1', '--json'], 'malformed_request'],
      [['submit', '--cases', '0-99', '--json'], 'index_out_of_pool'],
      [['submit', '--cases', '0-9', '--json'], 'episodes_out_of_bounds'],
    ];
    for (const [args, reason] of cases) {
      const r = pf(dir, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}${r.err}`);
      if (reason) assert.equal((r.json().error as { reason: string }).reason, reason, args.join(' '));
    }
    const abc = pf(dir, 'submit', '--cases', 'abc');
    assert.match(abc.err, /^policyforge submit: bad case list: "abc" is not a case index or a range like 0-7$/m);
    assert.equal((pf(dir, 'status', '--json').json().status as { budget: { used: number } }).budget.used, 0, 'argument errors charge nothing');
  });

  it('3: no runner to answer: no run here, or the runner died mid-submit (rolled back, uncharged)', async () => {
    const nowhere = tmpDir('norun');
    const none = pf(nowhere, 'status');
    assert.equal(none.code, 3);
    assert.match(none.err, /no PolicyForge run here/);

    const dir = ws();
    writePolicy(dir, slowPolicy(INTERRUPTIBLE_ITERATIONS));
    // The test's own child, so the killed process is reaped and its pid is free again.
    const runner = await spawnRunner(dir);
    await runner.client.close();
    const submit = pfAsync(dir, 'submit', '--cases', '0-7');
    await waitFor('the batch to start', () => readEvents(dir).some((e) => e.type === 'submit_started'), 60_000);
    await new Promise((r) => setTimeout(r, 300));
    runner.child.kill('SIGKILL');
    await runner.exited;
    const r = await submit;
    assert.equal(r.code, 3, r.err);
    assert.match(r.err, /the runner stopped during submission 1 \(the runner closed the connection \(1006\)\)\. Submission 1 was rolled back: nothing was charged \(budget 0\/12 used\), and it is safe to submit again/);
    writePolicy(dir, cartPolicy(0.5));
    const again = pf(dir, 'submit', '--cases', '0-1');
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /^submission 1 /);
  });
});
