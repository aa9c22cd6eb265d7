/**
 * Replays the BipedalWalker golden traces through walker.cpp built on Box2D 2.3's own sources
 * and prints, per trace, the first step whose observation leaves the recording by more than each
 * tolerance (ground-contact flags left out: this harness reads contacts after the step, not
 * through Gymnasium's begin/end listener).
 *
 *   npx tsx bench/box2d23/compare.ts <walker binary>
 *
 * Build the binary from pybox2d 2.3.10's `Box2D/` folder (Box2D 2.3 with pybox2d's patches), with
 * `USE_EXCEPTIONS` commented out in Common/b2Settings.h (it pulls in Python.h):
 *   g++ -O2 -I<dir holding Box2D/> bench/box2d23/walker.cpp <every Box2D/**.cpp> -o walker
 * For the float64 variant, make `float32` a `double` in b2Settings.h and drop the `f` suffix of
 * the float literals. Not part of any test: the sources are not in this repository.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Box2dTrace } from '../../src/envs/box2d/goldenTrace';

const TOLERANCES = [1e-6, 1e-5, 1e-4, 1e-3, 3e-2];
const CONTACT_FLAGS = new Set([8, 13]);

function input(trace: Box2dTrace): string {
  const world = trace.world as { initial_force_x: number; terrain_bodies: { vertices: [number, number][] }[][] };
  // The recording lists the world's bodies newest first; the harness creates them oldest first.
  const edges = [...world.terrain_bodies].reverse().map((b) => (b[0] as { vertices: [number, number][] }).vertices.flat().join(' '));
  const actions = (trace.actions as number[][]).map((a) => a.join(' '));
  return [String(world.initial_force_x), String(edges.length), ...edges, String(actions.length), ...actions].join('\n') + '\n';
}

function main(): void {
  const binary = process.argv[2];
  if (!binary) throw new Error('usage: npx tsx bench/box2d23/compare.ts <walker binary>');
  const file = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../test/fixtures/golden/box2d_bipedalwalker.json'), 'utf8')) as { traces: Box2dTrace[] };
  process.stdout.write(`| trace | steps | first step beyond ${TOLERANCES.join(' / ')} |\n|---|---|---|\n`);
  for (const trace of file.traces) {
    const rows = execFileSync(path.resolve(binary), { input: input(trace), encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
    const recorded = [trace.initial_obs as number[], ...trace.steps.map((s) => s.obs as number[])];
    const first = TOLERANCES.map((tol) => {
      const k = recorded.findIndex((rec, t) => rec.some((x, i) => !CONTACT_FLAGS.has(i) && !(Math.abs((rows[t]?.[i] ?? NaN) - x) <= tol * Math.max(1, Math.abs(x)))));
      return k < 0 ? 'none' : String(k);
    });
    process.stdout.write(`| ${trace.name} | ${trace.steps.length} | ${first.join(' / ')} |\n`);
  }
}

main();
