/** Shared benchmark plumbing: timing loops and the ratio table. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baselineName: string;
  baseline: number;
  /** value / baseline expressed so that > 1 means "slower/costlier than the baseline". */
  ratio: number;
  target?: string;
}

export interface BenchModule {
  readonly name: string;
  run(table: BenchTable): Promise<void>;
}

export class BenchTable {
  readonly rows: BenchRow[] = [];

  /**
   * Adds a throughput row (higher is better): ratio = baseline / value, i.e. how many times
   * slower than the baseline.
   */
  throughput(name: string, value: number, unit: string, baselineName: string, baseline: number, target?: string): void {
    this.add({ name, value, unit, baselineName, baseline, ratio: baseline / value, target });
  }

  /** Adds a duration row (lower is better): ratio = value / baseline. */
  duration(name: string, value: number, unit: string, baselineName: string, baseline: number, target?: string): void {
    this.add({ name, value, unit, baselineName, baseline, ratio: value / baseline, target });
  }

  private add(row: BenchRow): void {
    this.rows.push(row);
    process.stdout.write(
      `${row.name.padEnd(46)} ${fmt(row.value).padStart(12)} ${row.unit.padEnd(8)} vs ${row.baselineName} ${fmt(row.baseline)} ${row.unit}: ${row.ratio.toFixed(2)}×${row.target ? `  (target ${row.target})` : ''}\n`,
    );
  }

  printSummary(): void {
    process.stdout.write(`\n${this.rows.length} benchmark rows\n`);
  }
}

function fmt(v: number): string {
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (v >= 1e4) return `${(v / 1e3).toFixed(1)}k`;
  return v >= 100 ? v.toFixed(0) : v.toPrecision(3);
}

/** Runs `fn` repeatedly for at least `ms` milliseconds; returns operations per second. */
export function opsPerSecond(fn: (n: number) => number, opsPerCall: number, ms = 500): number {
  fn(Math.max(1, Math.floor(opsPerCall / 10))); // warm-up
  let ops = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < ms) {
    ops += fn(opsPerCall);
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return (ops / elapsed) * 1000;
}

/** Best-of-n wall time in milliseconds of an async function. */
export async function bestOf(n: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}
