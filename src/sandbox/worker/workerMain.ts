/**
 * Entry of `dist/sandboxWorker.js`: one sandbox worker process. Started by the pool under
 * Node's permission model (it may read only its own script and the environment plugins it
 * was given), with a bounded heap, an empty environment, and string code generation
 * disallowed in every realm. It runs one episode per message and answers with its record.
 */
import { setFlagsFromString } from 'node:v8';
import { createRegistry } from '../../envs';
import { BUNDLE_FILENAME } from '../bundle/constants';
import { runEpisode, type LoadedBundle } from './episode';
import type { HostMessage, WorkerArgs, WorkerMessage } from './messages';
import { BundleSourceMap } from './policyError';
import { packTrajectory } from './trajectoryWire';

/** Bundles kept compiled; a worker usually serves one submission at a time. */
const BUNDLE_CACHE_SIZE = 4;


/**
 * V8 optimizes small functions on their first tick: in a realm that serves one episode (the
 * fallback after an exception) that is a TurboFan compile (about 1.5 ms of CPU) thrown away with
 * it. Without early optimization a short episode stays in the baseline tiers and a long one still
 * gets optimized. In the reused realm code is warm across episodes either way (closures of the
 * same module share feedback): A/B runs of the sandbox bench could not tell the flag on from off.
 * Unknown to some V8 builds; then ignored.
 */
setFlagsFromString('--max-bytecode-size-for-early-opt=0');

function main(): void {
  const send = process.send?.bind(process);
  if (!send) {
    process.stderr.write('sandboxWorker.js must be started by the sandbox pool (it needs an IPC channel)\n');
    process.exit(2);
  }
  const post = (m: WorkerMessage): void => {
    send(m);
  };
  const args = JSON.parse(process.argv[2] ?? '{"plugins":[]}') as WorkerArgs;
  const registry = createRegistry();
  const pluginErrors: string[] = [];
  for (const plugin of args.plugins) {
    const r = registry.loadPlugin(plugin);
    if (!r.ok) pluginErrors.push(r.error.message);
  }
  const bundles = new Map<string, LoadedBundle>();

  process.on('message', (m: HostMessage) => {
    if (m.type !== 'episode') return;
    let bundle = bundles.get(m.bundleId);
    if (!bundle) {
      if (m.code === undefined) throw new Error(`bundle ${m.bundleId} was never sent to this worker`);
      bundle = { code: m.code, sourceMap: new BundleSourceMap(m.code, BUNDLE_FILENAME) };
      bundles.set(m.bundleId, bundle);
      if (bundles.size > BUNDLE_CACHE_SIZE) bundles.delete(bundles.keys().next().value as string);
    }
    const record = runEpisode(m, registry, bundle, (phase, steps, ret) => post({ type: 'beat', job: m.job, phase, steps, return: ret }));
    // An environment that could not be made may come from a plugin that failed to load: say so.
    if (record.status === 'runner_fault' && record.length === 0 && record.error && pluginErrors.length > 0) {
      record.error.message += ` (${pluginErrors.join('; ')})`;
    }
    post({ type: 'record', job: m.job, record: { ...record, trajectory: packTrajectory(record.trajectory) } });
  });
  // The pool went away: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
  post({ type: 'ready', pluginErrors });
}

main();
