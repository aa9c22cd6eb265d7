/** The classic-control family: five Gymnasium environments, registered with their public parameters. */
import type { EnvDefinition } from '../core/definition';
import { ParamError, type ParamSpecs } from '../core/params';
import { AcrobotEnv } from './acrobot';
import { CartPoleEnv } from './cartPole';
import { MountainCarEnv } from './mountainCar';
import { MountainCarContinuousEnv } from './mountainCarContinuous';
import { PendulumEnv } from './pendulum';
import { acrobotStarter, cartPoleStarter, mountainCarContinuousStarter, mountainCarStarter, pendulumStarter } from './starters';

/** MountainCar's initial position range, Gymnasium's reset options `low`/`high` as parameters. */
const MOUNTAIN_CAR_RESET: ParamSpecs = {
  reset_low: { type: 'number', default: -0.6, min: -1.2, max: 0.5, description: 'Lowest initial position (Gymnasium: -0.6)' },
  reset_high: { type: 'number', default: -0.4, min: -1.2, max: 0.5, description: 'Highest initial position (Gymnasium: -0.4)' },
};
const MOUNTAIN_CAR_TRAINING = { reset_low: { min: -1.2, max: 0.4 }, reset_high: { min: -1.2, max: 0.4 } } as const;

function resetRange(id: string, p: Readonly<Record<string, unknown>>): [number, number] {
  const low = (p['reset_low'] as number | undefined) ?? -0.6;
  const high = (p['reset_high'] as number | undefined) ?? -0.4;
  if (low > high) throw new ParamError(id, 'reset_high', `must be >= reset_low (${low}), got ${high}`);
  return [low, high];
}

export const classicEnvironments: readonly EnvDefinition[] = [
  {
    id: 'CartPole-v1',
    family: 'classic/cartpole',
    description: 'Balance a pole on a cart by pushing left or right; +1 per step, up to 500 steps.',
    params: {
      sutton_barto_reward: { type: 'boolean', default: false, description: 'Reward 0 per step and -1 on failure instead of +1 per step' },
      reset_bound: { type: 'number', default: 0.05, min: 0, max: 0.2, description: 'Each initial state component is drawn uniformly in ±reset_bound (Gymnasium: 0.05)' },
    },
    training: { reset_bound: { min: 0, max: 0.2, note: 'narrower starts keep the pole nearer upright' } },
    maxEpisodeSteps: 500,
    rewardRange: [0, 1],
    // +1 per step, so 0; the Sutton–Barto reward is 0 per step and −1 at the step the pole falls.
    failureReturn: (p) => (p['sutton_barto_reward'] === true ? -1 : 0),
    create: (p) => new CartPoleEnv({ suttonBartoReward: p['sutton_barto_reward'] === true, resetBound: (p['reset_bound'] as number | undefined) ?? 0.05 }),
    starterPolicy: cartPoleStarter,
  },
  {
    id: 'MountainCar-v0',
    family: 'classic/mountaincar',
    description: 'Drive an underpowered car up a hill by rocking back and forth; -1 per step until the flag at 0.5, up to 200 steps.',
    params: {
      goal_velocity: { type: 'number', default: 0, min: -0.07, max: 0.07, description: 'Minimum velocity at the goal position' },
      ...MOUNTAIN_CAR_RESET,
    },
    training: MOUNTAIN_CAR_TRAINING,
    maxEpisodeSteps: 200,
    rewardRange: [-1, 0],
    // −1 for each of 200 steps.
    failureReturn: -200,
    create: (p) => new MountainCarEnv(p['goal_velocity'] as number, ...resetRange('MountainCar-v0', p)),
    starterPolicy: mountainCarStarter,
  },
  {
    id: 'MountainCarContinuous-v0',
    family: 'classic/mountaincar',
    description: 'Continuous-force MountainCar: +100 at the flag (0.45), minus 0.1·force² per step, up to 999 steps.',
    params: {
      goal_velocity: { type: 'number', default: 0, min: -0.07, max: 0.07, description: 'Minimum velocity at the goal position' },
      ...MOUNTAIN_CAR_RESET,
    },
    training: MOUNTAIN_CAR_TRAINING,
    maxEpisodeSteps: 999,
    rewardRange: [-Infinity, Infinity],
    // −0.1·force² with the force inside [−1, 1] (an action outside it is invalid): at worst −0.1
    // for each of 999 steps; the +100 at the flag only adds.
    failureReturn: -99.9,
    create: (p) => new MountainCarContinuousEnv(p['goal_velocity'] as number, ...resetRange('MountainCarContinuous-v0', p)),
    starterPolicy: mountainCarContinuousStarter,
  },
  {
    id: 'Pendulum-v1',
    family: 'classic/pendulum',
    description: 'Swing a pendulum up and hold it upright with limited torque; reward is minus angle², velocity and torque costs, 200 steps.',
    params: {
      g: { type: 'number', default: 10.0, min: 0, exclusiveMin: true, max: 100, description: 'Gravitational acceleration' },
      x_init: { type: 'number', default: Math.PI, min: 0, max: Math.PI, description: 'The initial angle is drawn uniformly in ±x_init (Gymnasium: π)' },
      y_init: { type: 'number', default: 1, min: 0, max: 8, description: 'The initial angular velocity is drawn uniformly in ±y_init (Gymnasium: 1)' },
    },
    training: { x_init: { min: 0, max: Math.PI }, y_init: { min: 0, max: 8 } },
    maxEpisodeSteps: 200,
    rewardRange: [-16.2736044, 0],
    // The per-step minimum −(π² + 0.1·8² + 0.001·2²) for each of 200 steps; gravity does not enter it.
    failureReturn: -(Math.PI ** 2 + 0.1 * 8 ** 2 + 0.001 * 2 ** 2) * 200,
    create: (p) => new PendulumEnv(p['g'] as number, (p['x_init'] as number | undefined) ?? Math.PI, (p['y_init'] as number | undefined) ?? 1),
    starterPolicy: pendulumStarter,
  },
  {
    id: 'Acrobot-v1',
    family: 'classic/acrobot',
    description: 'Swing the tip of a two-link chain above the bar by torquing the middle joint; -1 per step, up to 500 steps.',
    params: {
      book_or_nips: { type: 'enum', default: 'book', values: ['book', 'nips'], description: 'Dynamics variant' },
      reset_bound: { type: 'number', default: 0.1, min: 0, max: 1, description: 'Each initial angle and velocity is drawn uniformly in ±reset_bound (Gymnasium: 0.1)' },
    },
    training: { reset_bound: { min: 0, max: 1 } },
    maxEpisodeSteps: 500,
    rewardRange: [-1, 0],
    // −1 for each of 500 steps.
    failureReturn: -500,
    create: (p) => new AcrobotEnv(p['book_or_nips'] !== 'nips', (p['reset_bound'] as number | undefined) ?? 0.1),
    starterPolicy: acrobotStarter,
  },
];
