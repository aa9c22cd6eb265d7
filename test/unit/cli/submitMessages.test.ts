import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';
import { cartPolicy, cleanupTmp, CLI, makeWorkspace, readEvents, useTempDataDir, writePolicy } from '../runner/helpers';
import { pinSecret } from '../runner/pinSecret';
import { pf } from './cliHelpers';

/** Pushes by the pole angle; its fifth act() throws in episodes that start with the cart right of centre. */
const FLAKY = `export class Policy {
  private calls = 0;
  private right = false;
  constructor(_ctx: PolicyContext) {}
  act(o: Observation): Action {
    this.calls++;
    if (this.calls === 1) this.right = o[0]! > 0;
    if (this.right && this.calls === 5) throw new Error('boom at step ' + this.calls);
    return o[2]! > 0 ? 1 : 0;
  }
}
`;

describe('cli: what submit and feedback say', function () {
  this.timeout(120_000);
  const workspaces: string[] = [];
  before(() => useTempDataDir());
  after(() => {
    for (const dir of workspaces) {
      const f = readRunnerFile(dir);
      if (f && processAlive(f.pid)) process.kill(f.pid, 'SIGTERM');
    }
    cleanupTmp();
  });

  it('feedback: a per-case table, the episodes worth opening with their files, steps numbered from 1; MCP says the same', async () => {
    const dir = makeWorkspace({ budget: 16 });
    workspaces.push(dir);
    // A fresh secret leaves all eight cases on one side of centre (no failure, or no success) about once in 128 runs.
    pinSecret(dir, '5eed'.repeat(16));
    writePolicy(dir, FLAKY);
    const s = pf(dir, 'submit', '--cases', '0-7');
    assert.equal(s.code, 0, s.err);
    const out = pf(dir, 'feedback').out;
    assert.equal(out, s.out, 'feedback prints what submit printed');
    const table = out.slice(out.indexOf('  per case:\n'), out.indexOf('  worth opening:'));
    assert.match(table, /^ {4}case {2}return {2}length {2}status {5}first error$/m);
    const rows = table.split('\n').slice(2, -1);
    assert.equal(rows.length, 8);
    const failed = rows.filter((r) => r.includes('exception'));
    assert.ok(failed.length > 0 && failed.length < 8, table);
    // A failure scores CartPole's failure return, 0; the 4 it had reached stays beside it.
    for (const r of failed) assert.match(r, /^ +\d+ +0\.0 +4 {2}exception {2}\(partial 4\.0\) policy\/policy\.ts:8 act\(\) threw at step 5: Error: boom at step 5$/);
    const open = out.slice(out.indexOf('  worth opening:\n')).split('\n');
    assert.match(open[1]!, /^ {4}worst {3}case \d+ {2}return [\d.]+ {2}feedback\/submit-0001\/episodes\/case-\d{3}\.jsonl$/);
    assert.match(open[2]!, /^ {4}best {4}case \d+ {2}return [\d.]+ {2}feedback\/submit-0001\/episodes\/case-\d{3}\.jsonl$/);
    assert.match(open[3]!, /^ {4}failed {2}case \d+ {2}exception {2}feedback\/submit-0001\/episodes\/case-\d{3}\.jsonl$/);
    for (const line of open.slice(1, 4)) assert.ok(fs.existsSync(path.join(dir, line.split('  ').at(-1)!)), line);

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', dir], stderr: 'ignore' });
    const mcp = new Client({ name: 'test', version: '0' });
    await mcp.connect(transport);
    try {
      const r = (await mcp.callTool({ name: 'feedback', arguments: {} })) as { content: { type: string; text: string }[] };
      assert.ok(r.content[0]!.text.startsWith(out), 'the MCP tool returns the same text, then the JSON');
    } finally {
      await mcp.close();
    }
  });

  it('type errors: a warning before the submit runs, --strict refuses uncharged', () => {
    const dir = makeWorkspace({ budget: 16 });
    workspaces.push(dir);
    writePolicy(dir, cartPolicy(0.5, 'const label: number = "x"; if (label === 2) return 0;'));
    const strict = pf(dir, 'submit', '--cases', '0-1', '--strict');
    assert.equal(strict.code, 1);
    assert.match(strict.err, /^policyforge submit: policy\/ has 1 type error\(s\), and a strict submit refuses them \(nothing was charged\): policy\/policy\.ts:4:11 Type 'string' is not assignable to type 'number'\./);
    assert.equal(readEvents(dir).filter((e) => e.type === 'submit_rejected' && e.reason === 'type_errors').length, 1);

    const plain = pf(dir, 'submit', '--cases', '0-1');
    assert.equal(plain.code, 0, plain.err);
    assert.equal(plain.err, "warning: policy/ has 1 type error(s); it runs anyway and is charged (--strict refuses instead):\n  policy/policy.ts:4:11 Type 'string' is not assignable to type 'number'.\n");
    assert.match(plain.out, /budget 2\/16 used/);
    // --json carries the same warning, for agents reading stdout only.
    const json = pf(dir, 'submit', '--cases', '2-3', '--json').json() as { warnings: string[] };
    assert.match(json.warnings[0]!, /^warning: policy\/ has 1 type error/);
  });

  it('the submit that spends the last of the budget says the run has ended and prints the report', () => {
    const dir = makeWorkspace({ budget: 4, validationCases: 4, heldOutCases: 4 });
    workspaces.push(dir);
    writePolicy(dir, cartPolicy(0.5));
    assert.equal(pf(dir, 'submit', '--cases', '0-1').code, 0);
    const last = pf(dir, 'submit', '--cases', '2-3');
    assert.equal(last.code, 0, last.err);
    assert.match(last.out, /budget 4\/4 used, 0 remaining\n/);
    assert.match(last.out, /\n\nThat submit spent the last of the budget, so the run has ended: the runner validated the candidates and assessed the selected one on hidden cases\.\nrun complete: CartPole-v1 {3}budget 4\/4 used {3}selection paper\nselected submission \d/);
    assert.equal(last.out.slice(last.out.indexOf('run complete:')), pf(dir, 'report').out, 'the report as `policyforge report` prints it');
  });
});
