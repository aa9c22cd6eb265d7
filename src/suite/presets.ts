/**
 * Named environment lists for suites. `core16` is the EvoPolicyGym benchmark's sixteen ids; the
 * ten the issues name (MuJoCo, Fetch, Box2D, HighwayEnv) plus six classic-control and grid tasks.
 * A preset may name ids this build does not have yet: `resolveEnvs` reports them instead of failing.
 */

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  core16: [
    'CartPole-v1',
    'MountainCarContinuous-v0',
    'Acrobot-v1',
    'Pendulum-v1',
    'MiniGrid-DoorKey-8x8-v0',
    'BabyAI-GoToLocal-v0',
    'BipedalWalker-v3',
    'CarRacing-v3',
    'parking-v0',
    'roundabout-v0',
    'Reacher-v5',
    'HalfCheetah-v5',
    'Ant-v5',
    'Pusher-v5',
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
