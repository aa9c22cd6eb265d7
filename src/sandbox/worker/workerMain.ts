/**
 * Entry of `dist/sandboxWorker.js`: one sandbox worker process. Started by the pool under
 * Node's permission model (it may read only its own script and the environment plugins it
 * was given), with a bounded heap, an empty environment, and string code generation
 * disallowed in every realm. It runs the episodes of the chunks it is sent, in order, and
 * reports their records (see messages.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { createRegistry } from '../../envs';
import { runEpisode } from './episode';
import { HeapCollector } from './heapCollector';
import { loadBundle, type LoadedBundle } from './loadedBundle';
import { packRecords, type FinishedRecord } from './recordWire';
import { tracer } from './trace';
import { REPORT_INTERVAL_MS, WORKER_BUNDLE_CACHE_SIZE, type EpisodePhase, type EpisodePosition, type HostMessage, type RunEpisodesMessage, type WorkerArgs, type WorkerMessage } from './messages';
import type { EpisodeRecord } from '../../protocol/episodes';


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
  const args = JSON.parse(process.argv[2] ?? '{"plugins":[]}') as WorkerArgs;
  const registry = createRegistry();
  const pluginErrors: string[] = [];
  for (const plugin of args.plugins) {
    const r = registry.loadPlugin(plugin);
    if (!r.ok) pluginErrors.push(r.error.message);
  }
  const bundles = new Map<string, LoadedBundle>();
  // Ids whose asynchronous `load` (a WebAssembly engine, say) was awaited in this process.
  const prepared = new Set<string>();
  const queue: QueuedEpisode[] = [];
  const reporter = new Reporter((m) => send(m));
  const heap = new HeapCollector();
  let draining = false;

  /**
   * Runs every queued episode in one go. Chunks that arrive meanwhile wait in the channel and
   * are read when the queue is empty, after the last report (the pool keeps a second chunk in
   * flight, so the next one is usually there already).
   */
  const drain = (): void => {
    draining = true;
    // Waiting for an engine's load or a collection: chunks that arrive meanwhile queue up (draining stays set).
    let suspended = false;
    try {
      for (let next = queue[0]; next; next = queue[0]) {
        if (!prepared.has(next.message.envId) && registry.needsPreparation(next.message.envId)) {
          // A failed load surfaces as the environment's own error when the episode runs.
          prepared.add(next.message.envId);
          suspended = true;
          send({ type: 'preparing', envId: next.message.envId } satisfies WorkerMessage);
          // Loading leaves its transients (the model's file copies) as garbage in a heap that has
          // just grown by them: collected before the first episode, they are not kept for the batch.
          registry
            .prepare(next.message.envId)
            .catch(() => undefined)
            .then(() => heap.collect())
            .then(drain, drain);
          return;
        }
        queue.shift();
        const { message, job, bundle } = next;
        reporter.begin(job.job, message.exact);
        const task = { envId: message.envId, params: message.params, spec: job.spec, limits: message.limits, traced: message.exact, ...(next.opponent ? { opponent: next.opponent } : {}) };
        const record = runEpisode(task, registry, bundle, (phase, steps, ret, announce) => reporter.position(phase, steps, ret, announce));
        // An environment that could not be made may come from a plugin that failed to load: say so.
        if (record.status === 'runner_fault' && record.length === 0 && record.error && pluginErrors.length > 0) {
          record.error.message += ` (${pluginErrors.join('; ')})`;
        }
        const endOfChunk = next.lastOfChunk || queue.length === 0;
        if (endOfChunk && heap.due()) {
          // The chunk is reported once its garbage is gone: a batch's records then come from
          // workers holding only what they keep (heapCollector.ts).
          suspended = true;
          heap.collect().then(() => reporter.finished(job.job, record, true)).then(drain, drain);
          return;
        }
        reporter.finished(job.job, record, endOfChunk);
      }
    } finally {
      if (!suspended) draining = false;
    }
  };

  /** A bundle by id from the cache, or loaded from the code sent with it (the host mirrors the cache). */
  const known = (id: string, code: string | undefined): LoadedBundle => {
    let bundle = bundles.get(id);
    if (!bundle) {
      if (code === undefined) throw new Error(`bundle ${id} was never sent to this worker`);
      bundle = loadBundle(code);
      bundles.set(id, bundle);
      if (bundles.size > WORKER_BUNDLE_CACHE_SIZE) bundles.delete(bundles.keys().next().value as string);
    }
    return bundle;
  };

  process.on('message', (m: HostMessage) => {
    if (m.type !== 'episodes') return;
    const bundle = known(m.bundleId, m.code);
    const opponent = m.opponent ? known(m.opponent.bundleId, m.opponent.code) : undefined;
    if (!draining && queue.length === 0) reporter.idleEnded();
    m.jobs.forEach((job, i) => queue.push({ message: m, job, bundle, lastOfChunk: i === m.jobs.length - 1, ...(opponent ? { opponent } : {}) }));
    if (!draining) drain();
  });
  // The pool went away: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', pluginErrors } satisfies WorkerMessage);
}

interface QueuedEpisode {
  message: RunEpisodesMessage;
  job: RunEpisodesMessage['jobs'][number];
  bundle: LoadedBundle;
  lastOfChunk: boolean;
  opponent?: LoadedBundle;
}

/**
 * Coalesces what the worker tells the host (see messages.ts): records wait for the end of
 * their chunk or for REPORT_INTERVAL_MS since the last message; positions are sent only when
 * that interval has passed (the host needs them to know the worker is alive and, if it must
 * kill it, where it was), except in an exact chunk, where every phase is reported.
 */
class Reporter {
  private records: FinishedRecord[] = [];
  private current: EpisodePosition | undefined;
  private exact = false;
  private started = 0;
  private lastSent = performance.now();

  constructor(private readonly send: (m: WorkerMessage) => void) {}

  /**
   * Work arrived at an idle worker. The host armed its silence timer when it sent it, so the
   * interval starts over: without this, the first position of every batch went out at once (an
   * extra message the host read while the workers had the cores).
   */
  idleEnded(): void {
    this.lastSent = performance.now();
  }

  begin(job: number, exact: boolean): void {
    this.exact = exact;
    this.started = performance.now();
    this.current = { job, phase: 'setup', steps: 0, return: 0, elapsedMs: 0 };
    tracer.begin(job, exact);
    tracer.position('setup', 0, 0);
    if (exact) this.flush();
  }

  /** `announce`: send now (the host's deadline depends on it, see episode.ts). */
  position(phase: EpisodePhase, steps: number, ret: number, announce = false): boolean {
    const c = this.current;
    if (!c) return false;
    const changed = c.phase !== phase;
    // The episode's clock (the host's episode deadline) starts when the policy's part does.
    if (c.phase === 'setup' && phase !== 'setup') this.started = performance.now();
    c.phase = phase;
    c.steps = steps;
    c.return = ret;
    tracer.position(phase, steps, ret);
    if (!announce && !(this.exact && changed) && performance.now() - this.lastSent < REPORT_INTERVAL_MS) return false;
    this.flush();
    return true;
  }

  finished(job: number, record: EpisodeRecord, endOfChunk: boolean): void {
    this.records.push({ job, record });
    this.current = undefined;
    tracer.begin(-1, false);
    if (endOfChunk || this.exact || performance.now() - this.lastSent >= REPORT_INTERVAL_MS) this.flush();
  }

  private flush(): void {
    const now = performance.now();
    const m: WorkerMessage = { type: 'progress', records: packRecords(this.records) };
    if (this.current) m.current = { ...this.current, elapsedMs: now - this.started };
    this.records = [];
    this.lastSent = now;
    this.send(m);
  }
}

main();
