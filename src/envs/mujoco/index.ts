/**
 * The MuJoCo family: Gymnasium's eleven MuJoCo v5 tasks and Gymnasium-Robotics' four Fetch v4
 * tasks on the official WebAssembly build.
 * Every Gymnasium v5 constructor argument is a parameter with Gymnasium's default (ranges split
 * into `_min`/`_max`); `load` instantiates the engine once per process. The engine and the
 * environment classes load with the first `create` or `load` (implementations.ts).
 */
import type { EnvDefinition } from '../core/definition';
import type { ParamSpec, ParamSpecs, ParamValues } from '../core/params';
import type { TrainingSchema } from '../core/training';
import { mujocoFailureReturns } from './failureReturns';
import { mujocoImplementations as impl } from './lazy';
import { MODELS, type ObservationStructure } from './models';
import type { ModelInfo, MujocoEnv } from './mujocoEnv';
import { mujocoStarters } from './starters';
import { mujocoGuide } from './guides';
import { fetchEnvironments } from './fetch';

const UNBOUNDED = Number.MAX_VALUE;

const num = (d: number, description: string, min?: number): ParamSpec => ({ type: 'number', default: d, description, ...(min !== undefined ? { min } : {}) });
const frameSkip = (d: number): ParamSpec => ({ type: 'integer', default: d, min: 1, max: 1000, description: 'mj_step calls per environment step' });
const flag = (d: boolean, description: string): ParamSpec => ({ type: 'boolean', default: d, description });
const noise = (d: number): ParamSpec => num(d, 'Scale of the random perturbation of the initial position and velocity', 0);
const excludePositions: ParamSpec = flag(true, 'Leave the torso\'s absolute horizontal position out of the observation');
const range = (name: string, lo: number, hi: number, what: string): ParamSpecs => ({
  [`${name}_min`]: num(lo, `${what}: lower end${lo === -UNBOUNDED ? ' (default: unbounded)' : ''}`),
  [`${name}_max`]: num(hi, `${what}: upper end${hi === UNBOUNDED ? ' (default: unbounded)' : ''}`),
});
const humanoidObservation: ParamSpecs = {
  exclude_current_positions_from_observation: excludePositions,
  include_cinert_in_observation: flag(true, 'Include the bodies\' com-based inertia (cinert) in the observation'),
  include_cvel_in_observation: flag(true, 'Include the bodies\' com-based velocities (cvel) in the observation'),
  include_qfrc_actuator_in_observation: flag(true, 'Include the actuator forces (qfrc_actuator) in the observation'),
  include_cfrc_ext_in_observation: flag(true, 'Include the external contact forces (cfrc_ext) in the observation'),
};

interface Task {
  id: string;
  model: ModelInfo;
  description: string;
  maxEpisodeSteps: number;
  params: ParamSpecs;
  /** What practice configurations may change: calmer starts, looser health limits, nearer targets. */
  training?: TrainingSchema;
  create: (p: ParamValues) => MujocoEnv & { structure: ObservationStructure };
}

const noiseKnob = (max: number): TrainingSchema => ({ reset_noise_scale: { min: 0, max } });

// The typed option objects are exactly the resolved parameters.
const as = <T>(p: ParamValues): T => p as unknown as T;

const tasks: Task[] = [
  {
    id: 'Reacher-v5',
    model: MODELS.reacher,
    description: 'Move a two-joint arm\'s fingertip to a random target on the table; reward −distance − control cost, 50 steps.',
    maxEpisodeSteps: 50,
    params: {
      frame_skip: frameSkip(2),
      reward_dist_weight: num(1, 'Weight of the distance term'),
      reward_control_weight: num(1, 'Weight of the control cost'),
      target_radius: { type: 'number', default: 0.2, min: 0.01, max: 0.21, description: 'Radius of the disc around the base the target is drawn in' },
    },
    training: { target_radius: { min: 0.05, max: 0.2 } },
    create: (p) => new (impl().ReacherEnv)(as(p)),
  },
  {
    id: 'HalfCheetah-v5',
    model: MODELS.halfCheetah,
    description: 'Make a planar two-legged cheetah run forward with six joint torques; reward forward velocity − control cost, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(5),
      forward_reward_weight: num(1, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(0.1, 'Weight of the control cost'),
      reset_noise_scale: noise(0.1),
      exclude_current_positions_from_observation: excludePositions,
    },
    training: noiseKnob(0.2),
    create: (p) => new (impl().HalfCheetahEnv)(as(p)),
  },
  {
    id: 'Ant-v5',
    model: MODELS.ant,
    description: 'Make a four-legged ant walk forward with eight joint torques; reward forward velocity + 1 while healthy − control and contact costs, ends when the torso leaves 0.2–1 m height, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(5),
      forward_reward_weight: num(1, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(0.5, 'Weight of the control cost'),
      contact_cost_weight: num(5e-4, 'Weight of the contact cost'),
      healthy_reward: num(1, 'Reward per step while healthy'),
      main_body: { type: 'integer', default: 1, min: 0, max: 13, description: 'Body id whose x/y velocity is rewarded (1 = torso)' },
      terminate_when_unhealthy: flag(true, 'End the episode when the ant is unhealthy'),
      ...range('healthy_z_range', 0.2, 1, 'Healthy torso height (m)'),
      ...range('contact_force_range', -1, 1, 'Clip range of the contact forces'),
      reset_noise_scale: noise(0.1),
      exclude_current_positions_from_observation: excludePositions,
      include_cfrc_ext_in_observation: flag(true, 'Include the clipped external contact forces in the observation'),
    },
    training: { ...noiseKnob(0.2), healthy_z_range_min: { min: 0.1, max: 0.2 }, healthy_z_range_max: { min: 1, max: 1.5 } },
    create: (p) => new (impl().AntEnv)(as(p)),
  },
  {
    id: 'Pusher-v5',
    model: MODELS.pusher,
    description: 'Push a cylinder to a goal on the table with a seven-joint arm; reward −distances − control cost, 100 steps.',
    maxEpisodeSteps: 100,
    params: {
      frame_skip: frameSkip(5),
      reward_near_weight: num(0.5, 'Weight of the fingertip-to-object distance'),
      reward_dist_weight: num(1, 'Weight of the object-to-goal distance'),
      reward_control_weight: num(0.1, 'Weight of the control cost'),
    },
    create: (p) => new (impl().PusherEnv)(as(p)),
  },
  {
    id: 'Hopper-v5',
    model: MODELS.hopper,
    description: 'Make a one-legged planar hopper hop forward with three joint torques; reward forward velocity + 1 while healthy − control cost, ends when it falls, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(4),
      forward_reward_weight: num(1, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(1e-3, 'Weight of the control cost'),
      healthy_reward: num(1, 'Reward per step while healthy'),
      terminate_when_unhealthy: flag(true, 'End the episode when the hopper is unhealthy'),
      ...range('healthy_state_range', -100, 100, 'Healthy range of every qpos[2:] and qvel value'),
      ...range('healthy_z_range', 0.7, UNBOUNDED, 'Healthy torso height (m)'),
      ...range('healthy_angle_range', -0.2, 0.2, 'Healthy torso angle (rad)'),
      reset_noise_scale: noise(5e-3),
      exclude_current_positions_from_observation: excludePositions,
    },
    training: { ...noiseKnob(0.01), healthy_z_range_min: { min: 0.5, max: 0.7 }, healthy_angle_range_min: { min: -0.4, max: -0.2 }, healthy_angle_range_max: { min: 0.2, max: 0.4 } },
    create: (p) => new (impl().HopperEnv)(as(p)),
  },
  {
    id: 'Walker2d-v5',
    model: MODELS.walker2d,
    description: 'Make a planar two-legged walker walk forward with six joint torques; reward forward velocity + 1 while healthy − control cost, ends when it falls, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(4),
      forward_reward_weight: num(1, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(1e-3, 'Weight of the control cost'),
      healthy_reward: num(1, 'Reward per step while healthy'),
      terminate_when_unhealthy: flag(true, 'End the episode when the walker is unhealthy'),
      ...range('healthy_z_range', 0.8, 2, 'Healthy torso height (m)'),
      ...range('healthy_angle_range', -1, 1, 'Healthy torso angle (rad)'),
      reset_noise_scale: noise(5e-3),
      exclude_current_positions_from_observation: excludePositions,
    },
    training: { ...noiseKnob(0.01), healthy_z_range_min: { min: 0.6, max: 0.8 }, healthy_angle_range_min: { min: -1.5, max: -1 }, healthy_angle_range_max: { min: 1, max: 1.5 } },
    create: (p) => new (impl().Walker2dEnv)(as(p)),
  },
  {
    id: 'Swimmer-v5',
    model: MODELS.swimmer,
    description: 'Make a three-segment swimmer swim forward in a viscous fluid with two joint torques; reward forward velocity − control cost, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(4),
      forward_reward_weight: num(1, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(1e-4, 'Weight of the control cost'),
      reset_noise_scale: noise(0.1),
      exclude_current_positions_from_observation: excludePositions,
    },
    training: noiseKnob(0.2),
    create: (p) => new (impl().SwimmerEnv)(as(p)),
  },
  {
    id: 'InvertedPendulum-v5',
    model: MODELS.invertedPendulum,
    description: 'Balance a pole on a cart by pushing the cart; +1 per step while the pole stays within 0.2 rad of upright, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: { frame_skip: frameSkip(2), reset_noise_scale: noise(0.01) },
    training: noiseKnob(0.02),
    create: (p) => new (impl().InvertedPendulumEnv)(as(p)),
  },
  {
    id: 'InvertedDoublePendulum-v5',
    model: MODELS.invertedDoublePendulum,
    description: 'Balance two stacked poles on a cart; reward 10 per step minus distance and velocity penalties, ends when the tip drops below 1 m, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: { frame_skip: frameSkip(5), healthy_reward: num(10, 'Reward per step while the tip is above 1 m'), reset_noise_scale: noise(0.1) },
    training: noiseKnob(0.2),
    create: (p) => new (impl().InvertedDoublePendulumEnv)(as(p)),
  },
  {
    id: 'Humanoid-v5',
    model: MODELS.humanoid,
    description: 'Make a 3D humanoid walk forward with seventeen joint torques; reward forward velocity + 5 while healthy − control and contact costs, ends when the torso leaves 1–2 m height, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(5),
      forward_reward_weight: num(1.25, 'Weight of the forward-velocity reward'),
      ctrl_cost_weight: num(0.1, 'Weight of the control cost'),
      contact_cost_weight: num(5e-7, 'Weight of the contact cost'),
      ...range('contact_cost_range', -UNBOUNDED, 10, 'Clip range of the contact cost'),
      healthy_reward: num(5, 'Reward per step while healthy'),
      terminate_when_unhealthy: flag(true, 'End the episode when the humanoid is unhealthy'),
      ...range('healthy_z_range', 1, 2, 'Healthy torso height (m)'),
      reset_noise_scale: noise(0.01),
      ...humanoidObservation,
    },
    training: { ...noiseKnob(0.02), healthy_z_range_min: { min: 0.8, max: 1 }, healthy_z_range_max: { min: 2, max: 2.5 } },
    create: (p) => new (impl().HumanoidEnv)(as(p)),
  },
  {
    id: 'HumanoidStandup-v5',
    model: MODELS.humanoidStandup,
    description: 'Make a 3D humanoid lying on the ground stand up; reward the torso\'s height rate − control and impact costs + 1, 1000 steps.',
    maxEpisodeSteps: 1000,
    params: {
      frame_skip: frameSkip(5),
      uph_cost_weight: num(1, 'Weight of the height reward'),
      ctrl_cost_weight: num(0.1, 'Weight of the control cost'),
      impact_cost_weight: num(5e-7, 'Weight of the impact cost'),
      ...range('impact_cost_range', -UNBOUNDED, 10, 'Clip range of the impact cost'),
      reset_noise_scale: noise(0.01),
      ...humanoidObservation,
    },
    training: noiseKnob(0.02),
    create: (p) => new (impl().HumanoidStandupEnv)(as(p)),
  },
];

const gymnasiumEnvironments: readonly EnvDefinition[] = tasks.map((t) => ({
  id: t.id,
  family: 'mujoco',
  description: t.description,
  params: t.params,
  ...(t.training ? { training: t.training } : {}),
  maxEpisodeSteps: t.maxEpisodeSteps,
  rewardRange: [-Infinity, Infinity] as const,
  failureReturn: mujocoFailureReturns[t.id] as (p: ParamValues) => number,
  create: t.create,
  load: () => impl().prepareModel(t.model.file),
  starterPolicy: mujocoStarters[t.id] as string,
  guide: mujocoGuide(t.id),
}));

/** Gymnasium's eleven MuJoCo v5 tasks, then Gymnasium-Robotics' four Fetch v4 tasks. */
export const mujocoEnvironments: readonly EnvDefinition[] = [...gymnasiumEnvironments, ...fetchEnvironments];
