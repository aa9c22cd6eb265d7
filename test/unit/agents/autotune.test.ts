import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAutotune } from '../../../src/agents/autotune/autotune';
import { applyValues, findTunableLiterals, formatLiteral } from '../../../src/agents/autotune/literals';
import type { RunReport } from '../../../src/protocol/feedback';
import { cleanupTmp, closeSharedExecutor, connect, makeWorkspace, startHost, useTempDataDir } from '../runner/helpers';

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

  describe('progress lines', () => {
    before(() => useTempDataDir());
    after(async () => {
      await closeSharedExecutor();
      cleanupTmp();
    });

    async function autotuneLog(config: Parameters<typeof makeWorkspace>[0], edit?: (policyFile: string) => void): Promise<string[]> {
      const dir = makeWorkspace(config);
      edit?.(path.join(dir, 'policy', 'policy.ts'));
      const host = await startHost(dir);
      const client = await connect(host);
      const lines: string[] = [];
      try {
        await runAutotune(client, dir, { batch: 4, log: (l) => lines.push(l) });
      } finally {
        await client.close();
        await host.close();
      }
      return lines;
    }

    it('name each candidate\'s parent as the submission it was compared with, never itself', async () => {
      const lines = await autotuneLog({ envId: 'CartPole-v1', budget: 40 });
      const steps = lines.map((l) => /#(\d+) (accept|reject) .*\(parent #(\d+)/.exec(l)).filter((m) => m !== null);
      assert.ok(steps.length >= 5, lines.join('\n'));
      for (const m of steps) assert.ok(Number(m[3]) < Number(m[1]), `#${m[1]} names #${m[3]} as its parent`);
    });

    it('say plainly what it tunes (the MiniGrid starter: its two probabilities, not its rules)', async () => {
      const lines = await autotuneLog({ envId: 'MiniGrid-Empty-5x5-v0', budget: 8 });
      assert.match(lines[0] ?? '', /^autotune: tunes 2 decimal literal\(s\) in policy\/policy\.ts \(0\.2 \(line \d+\), 0\.5 \(line \d+\)\); integers and code stay as they are/);
    });

    it('say plainly when the policy has nothing to tune', async () => {
      const lines = await autotuneLog({ envId: 'MiniGrid-Empty-5x5-v0', budget: 8 }, (file) =>
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('= 0.2', '= 1 / 5').replace('< 0.5', '< 1 / 2')),
      );
      assert.match(lines[0] ?? '', /nothing to tune in policy\/policy\.ts: it tunes decimal literals/);
    });
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
