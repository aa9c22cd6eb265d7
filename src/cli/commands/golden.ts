/** `policyforge golden FILE...`: replays golden trace files against our environments. */
import * as fs from 'node:fs';
import { createRegistry } from '../../envs';
import { replayGoldenFile } from '../../envs/golden';
import { parse } from '../args';
import { UsageError, type CliCommand } from '../command';

export const goldenCommand: CliCommand = {
  name: 'golden',
  summary: 'Replay golden trace files (recorded from Gymnasium/MiniGrid) against our environments',
  usage: 'policyforge golden FILE... [--plugin FILE]... [--quiet]',
  async run(argv) {
    const { values, positionals } = parse(argv, { quiet: { type: 'boolean' }, plugin: { type: 'string', multiple: true } });
    if (positionals.length === 0) throw new UsageError('give at least one golden file');
    const registry = createRegistry();
    for (const p of values.plugin ?? []) {
      const r = registry.loadPlugin(p);
      if (!r.ok) process.stderr.write(`${r.error.message}\n`);
    }
    let passed = 0;
    let failed = 0;
    for (const file of positionals) {
      let json: unknown;
      try {
        json = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        process.stdout.write(`FAIL ${file}: cannot read: ${e instanceof Error ? e.message : String(e)}\n`);
        failed++;
        continue;
      }
      let report;
      try {
        report = replayGoldenFile(registry, json);
      } catch (e) {
        process.stdout.write(`FAIL ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
        failed++;
        continue;
      }
      for (const t of report.traces) {
        if (t.passed) passed++;
        else failed++;
        if (!t.passed || !values.quiet) {
          process.stdout.write(`${t.passed ? 'ok  ' : 'FAIL'} ${report.envId} ${t.name} (${t.steps} steps)${t.failure ? `: ${t.failure}` : ''}${t.note ? `: ${t.note}` : ''}\n`);
        }
      }
    }
    process.stdout.write(`golden: ${passed} passed, ${failed} failed\n`);
    return failed === 0 ? 0 : 1;
  },
};
