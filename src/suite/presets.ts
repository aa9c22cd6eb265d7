/**
 * Named environment lists for suites. A preset may name ids this build does not have yet:
 * `resolveEnvs` reports them instead of failing.
 *
 * `core16` is the EvoPolicyGym benchmark's sixteen environments, as its authors' repository runs
 * them for the paper's 128-episode suite (github.com/Linzwcs/EvoPolicyGym,
 * `config/main-128-codex-suite.toml`; the `gym/*` aliases there map to Gymnasium ids in
 * `src/evopolicygym/envs/gym/spec.py`, e.g. `gym/continuouscar` is MountainCarContinuous-v0).
 */

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  core16: [
    'Acrobot-v1',
    'MountainCarContinuous-v0',
    'BipedalWalker-v3',
    'CarRacing-v3',
    'HalfCheetah-v5',
    'Ant-v5',
    'Pusher-v5',
    'Reacher-v5',
    'MiniGrid-DoorKey-16x16-v0',
    'MiniGrid-KeyCorridorS4R3-v0',
    'MiniGrid-FourRooms-v0',
    'MiniGrid-ObstructedMaze-1Q-v1',
    'parking-v0',
    'roundabout-v0',
    'FetchPush-v4',
    'FetchPickAndPlace-v4',
  ],
  classic: ['CartPole-v1', 'MountainCar-v0', 'MountainCarContinuous-v0', 'Pendulum-v1', 'Acrobot-v1'],
  smoke: ['CartPole-v1', 'Acrobot-v1', 'MiniGrid-Empty-5x5-v0'],
};

export interface ResolvedEnvs {
  /** Ids to run, in order, without repeats. */
  available: string[];
  /** Ids the spec names that this build does not register. */
  missing: string[];
}

/** A comma-separated list of ids and preset names (`core16,LunarLander-v3`). */
export function resolveEnvs(spec: string, has: (id: string) => boolean): ResolvedEnvs {
  const ids = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((name) => PRESETS[name] ?? [name]);
  const unique = [...new Set(ids)];
  return { available: unique.filter(has), missing: unique.filter((id) => !has(id)) };
}

/** Each preset with the ids this build lacks, for `policyforge suite presets`. */
export function describePresets(has: (id: string) => boolean): { name: string; ids: readonly string[]; missing: string[] }[] {
  return Object.entries(PRESETS).map(([name, ids]) => ({ name, ids, missing: ids.filter((id) => !has(id)) }));
}
