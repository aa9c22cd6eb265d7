import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyValues, findTunableLiterals, formatLiteral } from '../../../src/agents/autotune/literals';
import type { RunReport } from '../../../src/protocol/feedback';

const CLI = path.resolve(__dirname, '..', '..', '..', 'bin', 'policyforge.js');

describe('autotune agent', function () {
  this.timeout(120_000);

  it('finds decimal literals (unary minus folded) and leaves integers, which are structure, alone', () => {
    const src = 'const gains = [0.5, -2.0, 1e-3];\nfor (let i = 0; i < 4; i++) {}\nreturn x > 0.25 ? 1 : 0;\n';
    const lits = findTunableLiterals(src);
    assert.deepEqual(lits.map((l) => l.value), [0.5, -2, 0.001, 0.25]);
    assert.deepEqual(lits.map((l) => l.line), [1, 1, 1, 3]);
    const out = applyValues(src, lits, [0.75, 3, -0.5, 1]);
    assert.equal(out, 'const gains = [0.75, 3.0, -0.5];\nfor (let i = 0; i < 4; i++) {}\nreturn x > 1.0 ? 1 : 0;\n');
    assert.deepEqual(findTunableLiterals(out).map((l) => l.value), [0.75, 3, -0.5, 1], 'rewritten literals stay tunable');
    assert.equal(formatLiteral(NaN), '0.0');
  });

  it('policyforge run (the main job) beats the starter policy on held-out cases', () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-autotune-data-'));
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pf-autotune-')), 'ws');
    try {
      const r = spawnSync(process.execPath, [CLI, 'run', '--env', 'CartPole-v1', '--agent', 'autotune', '--budget', '128', '--dir', dir, '--json'], {
        env: { ...process.env, POLICYFORGE_DATA_DIR: data },
        encoding: 'utf8',
        timeout: 110_000,
      });
      assert.equal(r.status, 0, r.stderr);
      const { report } = JSON.parse(r.stdout) as { report: RunReport };
      assert.equal(report.budget.used, 128, 'the whole budget is spent');
      assert.ok(report.selected !== null && report.heldOut && report.starterHeldOut);
      assert.ok(report.heldOut.mean > report.starterHeldOut.mean, `held-out ${report.heldOut.mean} vs starter ${report.starterHeldOut.mean}`);
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});
