/**
 * `npm run bench`: runs every benchmark module and prints one table. Each row is a measurement
 * next to a baseline measured in the same process and run, reported as a ratio; nothing here
 * asserts a time.
 */
import { BenchTable, type BenchModule } from './harness';
import { box2dBench } from './box2d.bench';
import { classicBench } from './classic.bench';
import { cliBench } from './cli.bench';
import { highwayBench } from './highway.bench';
import { memoryBench } from './memory.bench';
import { minigridBench } from './minigrid.bench';
import { mujocoBench } from './mujoco.bench';
import { analysisBench } from './analysis.bench';
import { arenaBench } from './arena.bench';
import { attributionBench } from './attribution.bench';
import { runnerBench } from './runner.bench';
import { sandboxBench } from './sandbox.bench';
import { webviewBench } from './webview.bench';

const modules: readonly BenchModule[] = [classicBench, minigridBench, highwayBench, sandboxBench, runnerBench, analysisBench, webviewBench, cliBench, box2dBench, mujocoBench, memoryBench, arenaBench, attributionBench];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const table = new BenchTable();
  for (const m of modules) {
    if (only.length > 0 && !only.some((o) => m.name.includes(o))) continue;
    process.stdout.write(`\n## ${m.name}\n`);
    await m.run(table);
  }
  table.printSummary();
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
