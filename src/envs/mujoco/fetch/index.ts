/**
 * Gymnasium-Robotics' Fetch v4 tasks as environment definitions: FetchReach, FetchPush,
 * FetchSlide and FetchPickAndPlace, with their constructor argument (`reward_type`) as a parameter.
 */
import type { EnvDefinition } from '../../core/definition';
import type { ParamSpecs, ParamValues } from '../../core/params';
import type { TrainingSchema } from '../../core/training';
import { mujocoTrajectoryGuide } from '../guides';
import type { ModelInfo } from '../mujocoEnv';
import type { FetchRewardType, FetchTask } from './fetchEnv';
import { mujocoImplementations as impl } from '../lazy';
import { FETCH_DECLARATIONS, fetchGuide, fetchModule, fetchStarters } from './policyFiles';

/** Gymnasium-Robotics' default camera: looking at the table from the robot's front left. */
const VIEW = { lookat: [1.3, 0.75, 0.55], distance: 2.5, azimuth: 132, elevation: -14 };

export const FETCH_MODELS = {
  reach: { file: 'robotics/fetch/reach.xml', nq: 15, nv: 15, nu: 0, nbody: 32, ctrlLimit: 1, timestep: 0.002, view: VIEW },
  push: { file: 'robotics/fetch/push.xml', nq: 22, nv: 21, nu: 0, nbody: 33, ctrlLimit: 1, timestep: 0.002, view: VIEW },
  slide: { file: 'robotics/fetch/slide.xml', nq: 22, nv: 21, nu: 0, nbody: 33, ctrlLimit: 1, timestep: 0.002, view: VIEW },
  pickAndPlace: { file: 'robotics/fetch/pick_and_place.xml', nq: 22, nv: 21, nu: 2, nbody: 33, ctrlLimit: 1, timestep: 0.002, view: VIEW },
} as const satisfies Record<string, ModelInfo>;

const robotStart = (x: number): Record<string, number[]> => ({ 'robot0:slide0': [x], 'robot0:slide1': [0.48], 'robot0:slide2': [0] });

export const FETCH_TASKS: readonly FetchTask[] = [
  {
    id: 'FetchReach-v4', model: FETCH_MODELS.reach, hasObject: false, blockGripper: true, gripperExtraHeight: 0.2, targetInTheAir: true,
    targetOffset: [0, 0, 0], objRange: 0.15, targetRange: 0.15, distanceThreshold: 0.05, initialQpos: robotStart(0.4049),
  },
  {
    id: 'FetchPush-v4', model: FETCH_MODELS.push, hasObject: true, blockGripper: true, gripperExtraHeight: 0, targetInTheAir: false,
    targetOffset: [0, 0, 0], objRange: 0.15, targetRange: 0.15, distanceThreshold: 0.05, initialQpos: { ...robotStart(0.405), 'object0:joint': [1.25, 0.53, 0.4, 1, 0, 0, 0] },
  },
  {
    id: 'FetchSlide-v4', model: FETCH_MODELS.slide, hasObject: true, blockGripper: true, gripperExtraHeight: -0.02, targetInTheAir: false,
    targetOffset: [0.4, 0, 0], objRange: 0.1, targetRange: 0.3, distanceThreshold: 0.05, initialQpos: { ...robotStart(0.05), 'object0:joint': [1.7, 1.1, 0.41, 1, 0, 0, 0] },
  },
  {
    id: 'FetchPickAndPlace-v4', model: FETCH_MODELS.pickAndPlace, hasObject: true, blockGripper: false, gripperExtraHeight: 0.2, targetInTheAir: true,
    targetOffset: [0, 0, 0], objRange: 0.15, targetRange: 0.15, distanceThreshold: 0.05, initialQpos: { ...robotStart(0.405), 'object0:joint': [1.25, 0.53, 0.4, 1, 0, 0, 0] },
  },
];

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'FetchReach-v4': 'Move a Fetch robot arm\'s gripper to a goal in the air by Cartesian displacements; sparse reward (−1 until within 5 cm), 50 steps.',
  'FetchPush-v4': 'Push a block across a table to a goal with a Fetch robot arm whose fingers are blocked closed; sparse reward (−1 until within 5 cm), 50 steps.',
  'FetchSlide-v4': 'Strike a puck so that it slides across a long low-friction table to a goal out of reach; sparse reward (−1 until within 5 cm), 50 steps.',
  'FetchPickAndPlace-v4': 'Grasp a block with a Fetch robot arm\'s two fingers and carry it to a goal on or above the table; sparse reward (−1 until within 5 cm), 50 steps.',
};

/** Steps per episode (Gymnasium-Robotics' registration). */
const MAX_STEPS = 50;
/**
 * Dense rewards are −distance: the object can fall off the table to the floor, and no point of
 * the scene is 2 m from a goal, so −2 per step bounds them.
 */
const DENSE_WORST_STEP = 2;

/**
 * The task's sampling ranges and success distance as parameters (defaults: Gymnasium-Robotics'),
 * so practice can bring goals nearer or widen the tolerance. The object is drawn at least 10 cm
 * from the gripper, so its range cannot shrink below that.
 */
function rangeParams(t: FetchTask): ParamSpecs {
  return {
    target_range: { type: 'number', default: t.targetRange, min: 0, max: 0.5, description: 'Half-width of the box the goal is drawn in around its centre (m)' },
    ...(t.hasObject ? { obj_range: { type: 'number', default: t.objRange, min: 0.1, max: 0.3, description: 'Half-width of the square the object is drawn in around the gripper (m)' } } : {}),
    distance_threshold: { type: 'number', default: t.distanceThreshold, min: 0.005, max: 0.2, description: 'Distance to the goal (m) that counts as success' },
  };
}
const rangeTraining = (t: FetchTask): TrainingSchema => ({
  target_range: { min: 0.02, max: Math.max(0.15, t.targetRange) },
  ...(t.hasObject ? { obj_range: { min: 0.1, max: Math.max(0.15, t.objRange) } } : {}),
  distance_threshold: { min: 0.05, max: 0.1 },
});
const withRanges = (t: FetchTask, p: ParamValues): FetchTask => ({
  ...t,
  targetRange: (p['target_range'] as number | undefined) ?? t.targetRange,
  objRange: (p['obj_range'] as number | undefined) ?? t.objRange,
  distanceThreshold: (p['distance_threshold'] as number | undefined) ?? t.distanceThreshold,
});

export const fetchEnvironments: readonly EnvDefinition[] = FETCH_TASKS.map((t) => ({
  id: t.id,
  family: 'mujoco',
  description: DESCRIPTIONS[t.id] as string,
  params: { reward_type: { type: 'enum', default: 'sparse', values: ['sparse', 'dense'], description: 'sparse: −1 until the goal is within 5 cm, else 0; dense: −distance to the goal' }, ...rangeParams(t) },
  training: rangeTraining(t),
  maxEpisodeSteps: MAX_STEPS,
  rewardRange: [-Infinity, 0] as const,
  failureReturn: (p: ParamValues) => -MAX_STEPS * (p['reward_type'] === 'dense' ? DENSE_WORST_STEP : 1),
  create: (p: ParamValues) => new (impl().FetchEnv)(withRanges(t, p), p['reward_type'] as FetchRewardType),
  load: () => impl().prepareModel(t.model.file),
  starterPolicy: fetchStarters[t.id] as string,
  declarations: FETCH_DECLARATIONS,
  guide: `${fetchGuide(t.id, t.hasObject, t.id.startsWith('FetchSlide') ? 'puck' : 'block')}\n\n${mujocoTrajectoryGuide}`,
  workspaceFiles: { 'policy/fetch.ts': fetchModule(t.id, t.hasObject) },
}));
