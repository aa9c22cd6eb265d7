/**
 * Names of the discrete actions of the built-in environments, by action index, so the replay
 * prints `forward` rather than `2`. MiniGrid's come from its own action table, the driving
 * environments' from their meta-action type (its labels depend on the configuration: the
 * default one is used), and the classic discrete ones follow Gymnasium's description of each.
 */
import { DiscreteMetaAction } from '../../envs/highway/actions';
import { ACTION } from '../../envs/minigrid/constants';
import { builtInRegistry } from './envFamily';

const MINIGRID_ACTIONS: readonly string[] = Object.entries(ACTION).sort((a, b) => a[1] - b[1]).map(([name]) => name);

const CLASSIC_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  'CartPole-v1': ['push left', 'push right'],
  'MountainCar-v0': ['accelerate left', 'coast', 'accelerate right'],
  'Acrobot-v1': ['torque −1', 'torque 0', 'torque +1'],
};

/** The action names of an environment, or undefined when its actions are not a named discrete set. */
export function actionNamesOf(envId: string, family: string): string[] | undefined {
  if (family === 'minigrid') return [...MINIGRID_ACTIONS];
  if (family === 'highway' || family.startsWith('highway/')) return drivingActions(envId);
  const classic = CLASSIC_ACTIONS[envId];
  return classic === undefined ? undefined : [...classic];
}

function drivingActions(envId: string): string[] | undefined {
  try {
    const inner: unknown = builtInRegistry().make(envId).env.inner;
    const type = typeof inner === 'object' && inner !== null && 'actionType' in inner ? inner.actionType : undefined;
    return type instanceof DiscreteMetaAction ? [...type.labels] : undefined;
  } catch {
    // Not a built-in id (or it no longer builds): the replay prints action values.
    return undefined;
  }
}
