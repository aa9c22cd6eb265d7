/** The classic-control family: five Gymnasium environments, registered with their public parameters. */
import type { EnvDefinition } from '../core/definition';
import { AcrobotEnv } from './acrobot';
import { CartPoleEnv } from './cartPole';
import { MountainCarEnv } from './mountainCar';
import { MountainCarContinuousEnv } from './mountainCarContinuous';
import { PendulumEnv } from './pendulum';
import { acrobotStarter, cartPoleStarter, mountainCarContinuousStarter, mountainCarStarter, pendulumStarter } from './starters';

export const classicEnvironments: readonly EnvDefinition[] = [
  {
    id: 'CartPole-v1',
    family: 'classic/cartpole',
    description: 'Balance a pole on a cart by pushing left or right; +1 per step, up to 500 steps.',
    params: {
      sutton_barto_reward: { type: 'boolean', default: false, description: 'Reward 0 per step and -1 on failure instead of +1 per step' },
    },
    maxEpisodeSteps: 500,
    rewardRange: [0, 1],
    // +1 per step, so 0; the Sutton–Barto reward is 0 per step and −1 at the step the pole falls.
    failureReturn: (p) => (p['sutton_barto_reward'] === true ? -1 : 0),
    create: (p) => new CartPoleEnv({ suttonBartoReward: p['sutton_barto_reward'] === true }),
    starterPolicy: cartPoleStarter,
  },
  {
    id: 'MountainCar-v0',
    family: 'classic/mountaincar',
    description: 'Drive an underpowered car up a hill by rocking back and forth; -1 per step until the flag at 0.5, up to 200 steps.',
    params: {
      goal_velocity: { type: 'number', default: 0, min: -0.07, max: 0.07, description: 'Minimum velocity at the goal position' },
    },
    maxEpisodeSteps: 200,
    rewardRange: [-1, 0],
    // −1 for each of 200 steps.
    failureReturn: -200,
    create: (p) => new MountainCarEnv(p['goal_velocity'] as number),
    starterPolicy: mountainCarStarter,
  },
  {
    id: 'MountainCarContinuous-v0',
    family: 'classic/mountaincar',
    description: 'Continuous-force MountainCar: +100 at the flag (0.45), minus 0.1·force² per step, up to 999 steps.',
    params: {
      goal_velocity: { type: 'number', default: 0, min: -0.07, max: 0.07, description: 'Minimum velocity at the goal position' },
    },
    maxEpisodeSteps: 999,
    rewardRange: [-Infinity, Infinity],
    // −0.1·force² with the force inside [−1, 1] (an action outside it is invalid): at worst −0.1
    // for each of 999 steps; the +100 at the flag only adds.
    failureReturn: -99.9,
    create: (p) => new MountainCarContinuousEnv(p['goal_velocity'] as number),
    starterPolicy: mountainCarContinuousStarter,
  },
  {
    id: 'Pendulum-v1',
    family: 'classic/pendulum',
    description: 'Swing a pendulum up and hold it upright with limited torque; reward is minus angle², velocity and torque costs, 200 steps.',
    params: {
      g: { type: 'number', default: 10.0, min: 0, exclusiveMin: true, max: 100, description: 'Gravitational acceleration' },
    },
    maxEpisodeSteps: 200,
    rewardRange: [-16.2736044, 0],
    // The per-step minimum −(π² + 0.1·8² + 0.001·2²) for each of 200 steps; gravity does not enter it.
    failureReturn: -(Math.PI ** 2 + 0.1 * 8 ** 2 + 0.001 * 2 ** 2) * 200,
    create: (p) => new PendulumEnv(p['g'] as number),
    starterPolicy: pendulumStarter,
  },
  {
    id: 'Acrobot-v1',
    family: 'classic/acrobot',
    description: 'Swing the tip of a two-link chain above the bar by torquing the middle joint; -1 per step, up to 500 steps.',
    params: {
      book_or_nips: { type: 'enum', default: 'book', values: ['book', 'nips'], description: 'Dynamics variant' },
    },
    maxEpisodeSteps: 500,
    rewardRange: [-1, 0],
    // −1 for each of 500 steps.
    failureReturn: -500,
    create: (p) => new AcrobotEnv(p['book_or_nips'] !== 'nips'),
    starterPolicy: acrobotStarter,
  },
];
