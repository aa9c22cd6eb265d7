/** Golden replay for any file in the golden format: dispatches each trace to its family's replayer. */
import type { EnvRegistry } from '../core/registry';
import { replayBox2dTrace } from '../box2d/golden';
import { replayClassicTrace } from './classic';
import { replayHighwayTrace } from './highway';
import { replayMiniGridTrace } from './minigrid';
import { GoldenFormatError, type GoldenFile, type GoldenReport, type TraceResult } from './types';

export type TraceReplayer = (registry: EnvRegistry, envId: string, trace: unknown) => TraceResult;

/** Family prefix → replayer. */
const replayers: ReadonlyArray<{ family: string; replay: TraceReplayer }> = [
  { family: 'classic/', replay: replayClassicTrace },
  { family: 'minigrid', replay: replayMiniGridTrace },
  { family: 'highway', replay: replayHighwayTrace },
  { family: 'box2d/', replay: replayBox2dTrace },
];

export function replayGoldenFile(registry: EnvRegistry, file: unknown): GoldenReport {
  const f = file as Partial<GoldenFile>;
  if (!f || typeof f !== 'object' || typeof f.env_id !== 'string' || !Array.isArray(f.traces)) {
    throw new GoldenFormatError('not a golden file: expected an object with env_id and traces');
  }
  const def = registry.get(f.env_id);
  const replayer = replayers.find((r) => def.family.startsWith(r.family));
  if (!replayer) throw new GoldenFormatError(`no golden replayer for family ${def.family} (${f.env_id})`);
  const traces = f.traces.map((t, i) => {
    try {
      return replayer.replay(registry, f.env_id as string, t);
    } catch (e) {
      const name = (t as { name?: unknown })?.name;
      return { name: typeof name === 'string' ? name : `trace ${i}`, passed: false, steps: 0, failure: e instanceof Error ? e.message : String(e) };
    }
  });
  return { envId: f.env_id, traces };
}

export { GoldenFormatError } from './types';
export type { GoldenReport, TraceResult } from './types';
