/**
 * The driving family: HighwayEnv 1.12's highway-v0, highway-fast-v0, merge-v0, roundabout-v0,
 * intersection-v0 and parking-v0, each with its default configuration as typed parameters.
 * HighwayEnv truncates itself at `duration`, so there is no TimeLimit.
 */
import type { EnvDefinition } from '../core/definition';
import { ParamError, type ParamSpecs, type ParamValues } from '../core/params';
import { onFirstUse } from '../core/lazy';
import type * as Implementations from './implementations';
import { DEFAULT_KINEMATICS, KINEMATIC_FEATURES, type KinematicFeature, type KinematicsConfig } from './kinematicsConfig';
import { DRIVING_TRAJECTORY_GUIDE, HIGHWAY_DECLARATIONS, PARKING_GUIDE, PARKING_MODULE, PARKING_STARTER, ROAD_LAYOUTS, roadGuide, roadModule, roadStarter } from './starters';

/** The scenes and the simulation under them, loaded when the first driving environment is made. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const impl = onFirstUse(() => require('./implementations') as typeof Implementations);

/** Starter, declarations, AGENTS.md section and `policy/driving.ts` for a road task. */
function roadFiles(id: string): Pick<EnvDefinition, 'starterPolicy' | 'declarations' | 'guide' | 'workspaceFiles'> {
  const layout = ROAD_LAYOUTS[id];
  if (!layout) throw new Error(`no observation layout for ${id}`);
  return { starterPolicy: roadStarter(layout), declarations: HIGHWAY_DECLARATIONS, guide: `${roadGuide(layout)}\n\n${DRIVING_TRAJECTORY_GUIDE}`, workspaceFiles: { 'policy/driving.ts': roadModule(layout) } };
}

const num = (p: ParamValues, k: string): number => p[k] as number;
const bool = (p: ParamValues, k: string): boolean => p[k] === true;

const timingParams = (simulation: number, policy: number): ParamSpecs => ({
  simulation_frequency: { type: 'integer', default: simulation, min: 1, max: 100, description: 'Simulation steps per second' },
  policy_frequency: { type: 'integer', default: policy, min: 1, max: 100, description: 'Decisions per second (each lasts ⌊simulation/policy⌋ simulation steps)' },
});

/** The Kinematics observation options as parameters, with a task's defaults. */
const kinematicsParams = (d: KinematicsConfig): ParamSpecs => ({
  observation_features: { type: 'list', default: d.features.join(','), values: KINEMATIC_FEATURES, description: 'Columns of the Kinematics observation, in order (comma-separated); x, y, vx, vy are normalized, the others are raw' },
  observation_vehicles: { type: 'integer', default: d.vehiclesCount, min: 1, max: 50, description: 'Rows of the Kinematics observation (your vehicle and the nearest others)' },
  observation_absolute: { type: 'boolean', default: d.absolute, description: 'World coordinates for every row instead of coordinates relative to your vehicle' },
  observation_normalize: { type: 'boolean', default: d.normalize, description: 'Map x, y, vx, vy from their ranges to [-1, 1]' },
  observation_clip: { type: 'boolean', default: d.clip, description: 'Clip normalized values to [-1, 1]' },
  observation_see_behind: { type: 'boolean', default: d.seeBehind, description: 'Include vehicles more than 10 m behind you' },
  observation_order: { type: 'enum', default: d.order, values: ['sorted', 'shuffled'], description: 'Rows 1+ nearest first, or shuffled' },
  observation_intentions: { type: 'boolean', default: d.observeIntentions, description: "Fill the cos_d, sin_d columns of rows 1+ with other vehicles' destination directions (zero otherwise; only matters when observation_features includes them)" },
});

const kinematicsFrom = (p: ParamValues, d: KinematicsConfig): KinematicsConfig => ({
  ...d,
  // resolveParams has checked every name against KINEMATIC_FEATURES.
  features: (p['observation_features'] as string).split(',') as KinematicFeature[],
  vehiclesCount: num(p, 'observation_vehicles'),
  absolute: bool(p, 'observation_absolute'),
  normalize: bool(p, 'observation_normalize'),
  clip: bool(p, 'observation_clip'),
  seeBehind: bool(p, 'observation_see_behind'),
  order: p['observation_order'] === 'shuffled' ? 'shuffled' : 'sorted',
  observeIntentions: bool(p, 'observation_intentions'),
});

const ROUNDABOUT_KINEMATICS: KinematicsConfig = { ...DEFAULT_KINEMATICS, absolute: true, featuresRange: { x: [-100, 100], y: [-100, 100], vx: [-15, 15], vy: [-15, 15] } };
const INTERSECTION_KINEMATICS: KinematicsConfig = {
  ...DEFAULT_KINEMATICS,
  vehiclesCount: 15,
  features: ['presence', 'x', 'y', 'vx', 'vy', 'cos_h', 'sin_h'],
  featuresRange: { x: [-100, 100], y: [-100, 100], vx: [-20, 20], vy: [-20, 20] },
  absolute: true,
};

const highwayParams = (fast: boolean): ParamSpecs => ({
  ...timingParams(fast ? 5 : 15, 1),
  lanes_count: { type: 'integer', default: fast ? 3 : 4, min: 1, max: 10, description: 'Number of lanes' },
  vehicles_count: { type: 'integer', default: fast ? 20 : 50, min: 0, max: 200, description: 'Other vehicles spawned ahead of the ego vehicle' },
  duration: { type: 'number', default: fast ? 30 : 40, min: 1, max: 1000, description: 'Episode length [s]; truncated when reached' },
  initial_lane_id: { type: 'integer', default: -1, min: -1, max: 9, description: 'Lane the ego vehicle starts on (0 left-most), -1 random' },
  ego_spacing: { type: 'number', default: fast ? 1.5 : 2, min: 0, max: 10, description: 'Gap ratio in front of the ego vehicle at spawn' },
  vehicles_density: { type: 'number', default: 1, min: 0.1, max: 10, description: 'Traffic density (gaps shrink as it grows)' },
  collision_reward: { type: 'number', default: -1, description: 'Reward weight of a collision' },
  right_lane_reward: { type: 'number', default: 0.1, description: 'Reward weight of driving on the right-most lane (linear in lane index)' },
  high_speed_reward: { type: 'number', default: 0.4, description: 'Reward weight of forward speed, linear over reward_speed_min..max' },
  reward_speed_min: { type: 'number', default: 20, description: 'Forward speed with zero speed reward [m/s]' },
  reward_speed_max: { type: 'number', default: 30, description: 'Forward speed with full speed reward [m/s]' },
  normalize_reward: { type: 'boolean', default: true, description: 'Map the reward to [0, 1]' },
  offroad_terminal: { type: 'boolean', default: false, description: 'End the episode when the ego vehicle leaves the road' },
  ...kinematicsParams(DEFAULT_KINEMATICS),
});

/** Decisions in an episode that runs its whole duration. */
const decisions = (p: ParamValues): number => Math.ceil(num(p, 'duration') * num(p, 'policy_frequency'));

/**
 * Normalized, every step is in [0, 1], so 0. Unnormalized, the crash that ends the episode and
 * any negative weight at every decision.
 */
function highwayFailureReturn(p: ParamValues): number {
  if (bool(p, 'normalize_reward')) return 0;
  const perStep = Math.min(0, num(p, 'right_lane_reward')) + Math.min(0, num(p, 'high_speed_reward'));
  return decisions(p) * perStep + Math.min(0, num(p, 'collision_reward'));
}

function highwayDefinition(fast: boolean): EnvDefinition {
  return {
    id: fast ? 'highway-fast-v0' : 'highway-v0',
    family: 'highway',
    description: fast
      ? 'Drive fast on a 3-lane highway among 20 IDM vehicles without crashing (5 Hz simulation, only ego collisions); reward in [0, 1] per second, 30 s.'
      : 'Drive fast on a 4-lane highway among 50 IDM vehicles without crashing, preferably on the right; reward in [0, 1] per second, 40 s.',
    params: highwayParams(fast),
    // Traffic density is what a practice configuration may change (fewer, sparser vehicles first).
    training: { vehicles_count: { min: 0, max: 100 }, vehicles_density: { min: 0.1, max: 3 } },
    maxEpisodeSteps: null,
    rewardRange: [0, 1],
    failureReturn: highwayFailureReturn,
    create: (p) => {
      const lane = num(p, 'initial_lane_id');
      if (lane >= num(p, 'lanes_count')) throw new ParamError(fast ? 'highway-fast-v0' : 'highway-v0', 'initial_lane_id', `must be below lanes_count (${num(p, 'lanes_count')}), got ${lane}`);
      return new (impl().HighwayEnv)({
        simulationFrequency: num(p, 'simulation_frequency'),
        policyFrequency: num(p, 'policy_frequency'),
        lanesCount: num(p, 'lanes_count'),
        vehiclesCount: num(p, 'vehicles_count'),
        duration: num(p, 'duration'),
        egoSpacing: num(p, 'ego_spacing'),
        vehiclesDensity: num(p, 'vehicles_density'),
        initialLaneId: lane < 0 ? null : lane,
        collisionReward: num(p, 'collision_reward'),
        rightLaneReward: num(p, 'right_lane_reward'),
        highSpeedReward: num(p, 'high_speed_reward'),
        laneChangeReward: 0,
        rewardSpeedRange: [num(p, 'reward_speed_min'), num(p, 'reward_speed_max')],
        normalizeReward: bool(p, 'normalize_reward'),
        offroadTerminal: bool(p, 'offroad_terminal'),
        egoCollisionsOnly: fast,
        observation: kinematicsFrom(p, DEFAULT_KINEMATICS),
      });
    },
    ...roadFiles(fast ? 'highway-fast-v0' : 'highway-v0'),
  };
}

const mergeDefinition: EnvDefinition = {
  id: 'merge-v0',
  family: 'highway',
  description: 'Drive past a highway on-ramp at speed without crashing, making room for the merging vehicle; reward in [0, 1] per second, ends past x = 370 m.',
  params: {
    ...timingParams(15, 1),
    collision_reward: { type: 'number', default: -1, description: 'Reward weight of a collision' },
    right_lane_reward: { type: 'number', default: 0.1, description: 'Reward weight of driving on the right lane' },
    high_speed_reward: { type: 'number', default: 0.2, description: 'Reward weight of speed, linear over reward_speed_min..max (not clipped)' },
    reward_speed_min: { type: 'number', default: 20, description: 'Speed with zero speed reward [m/s]' },
    reward_speed_max: { type: 'number', default: 30, description: 'Speed with full speed reward [m/s]' },
    merging_speed_reward: { type: 'number', default: -0.5, description: 'Weight of the merge-lane slowdown penalty (sum of (target − speed)/target)' },
    lane_change_reward: { type: 'number', default: -0.05, description: 'Reward weight of a lane-change action' },
    ...kinematicsParams(DEFAULT_KINEMATICS),
  },
  maxEpisodeSteps: null,
  rewardRange: [-Infinity, Infinity],
  // Mapped from [collision + merging, speed + right lane] to [0, 1]: a step goes below 0 only on
  // the crash that ends the episode, by at most (lane change + the one merging vehicle's full
  // slowdown) over the span, −0.028 for the default weights.
  failureReturn: (p) => Math.min(0, num(p, 'lane_change_reward') / (num(p, 'high_speed_reward') + num(p, 'right_lane_reward') - num(p, 'collision_reward') - num(p, 'merging_speed_reward'))),
  create: (p) =>
    new (impl().MergeEnv)({
      simulationFrequency: num(p, 'simulation_frequency'),
      policyFrequency: num(p, 'policy_frequency'),
      collisionReward: num(p, 'collision_reward'),
      rightLaneReward: num(p, 'right_lane_reward'),
      highSpeedReward: num(p, 'high_speed_reward'),
      rewardSpeedRange: [num(p, 'reward_speed_min'), num(p, 'reward_speed_max')],
      mergingSpeedReward: num(p, 'merging_speed_reward'),
      laneChangeReward: num(p, 'lane_change_reward'),
      observation: kinematicsFrom(p, DEFAULT_KINEMATICS),
    }),
  ...roadFiles('merge-v0'),
};

const roundaboutDefinition: EnvDefinition = {
  id: 'roundabout-v0',
  family: 'highway',
  description: 'Cross a two-lane roundabout from the south entry to the north exit among four IDM vehicles without crashing; reward in [0, 1] per second, 11 s.',
  params: {
    ...timingParams(15, 1),
    duration: { type: 'number', default: 11, min: 1, max: 1000, description: 'Episode length [s]; truncated when reached' },
    collision_reward: { type: 'number', default: -1, description: 'Reward weight of a collision' },
    high_speed_reward: { type: 'number', default: 0.2, description: 'Reward weight of the target-speed index (0, 0.5, 1)' },
    lane_change_reward: { type: 'number', default: -0.05, description: 'Reward weight of a lane-change action' },
    normalize_reward: { type: 'boolean', default: true, description: 'Map the reward to [0, 1]' },
    incoming_vehicle_destination: { type: 'integer', default: -1, min: -1, max: 2, description: 'Exit of the vehicle already in the roundabout: 0 east, 1 south, 2 north, -1 random' },
    ...kinematicsParams(ROUNDABOUT_KINEMATICS),
  },
  maxEpisodeSteps: null,
  rewardRange: [0, 1],
  // Normalized, a step goes below 0 only on the crash that ends the episode, by a lane change's
  // penalty over the span (−0.042 for the default weights); unnormalized, a lane change at every
  // decision and the crash.
  failureReturn: (p) => {
    const laneChange = Math.min(0, num(p, 'lane_change_reward'));
    if (bool(p, 'normalize_reward')) return laneChange / (num(p, 'high_speed_reward') - num(p, 'collision_reward'));
    return decisions(p) * laneChange + Math.min(0, num(p, 'collision_reward'));
  },
  create: (p) =>
    new (impl().RoundaboutEnv)({
      simulationFrequency: num(p, 'simulation_frequency'),
      policyFrequency: num(p, 'policy_frequency'),
      duration: num(p, 'duration'),
      collisionReward: num(p, 'collision_reward'),
      highSpeedReward: num(p, 'high_speed_reward'),
      laneChangeReward: num(p, 'lane_change_reward'),
      normalizeReward: bool(p, 'normalize_reward'),
      incomingVehicleDestination: num(p, 'incoming_vehicle_destination') < 0 ? null : num(p, 'incoming_vehicle_destination'),
      targetSpeeds: impl().ROUNDABOUT_TARGET_SPEEDS,
      observation: kinematicsFrom(p, ROUNDABOUT_KINEMATICS),
    }),
  ...roadFiles('roundabout-v0'),
};

const parkingDefinition: EnvDefinition = {
  id: 'parking-v0',
  family: 'highway/parking',
  description: 'Park a car in a goal spot with continuous acceleration and steering: reward −√(weighted distance to the goal pose) per step, −5 on a crash, ends on success or crash, 100 s.',
  params: {
    ...timingParams(15, 5),
    duration: { type: 'number', default: 100, min: 1, max: 1000, description: 'Episode length [s]; truncated when reached' },
    success_goal_reward: { type: 'number', default: 0.12, min: 0, description: 'Success when the distance reward is above minus this' },
    collision_reward: { type: 'number', default: -5, description: 'Reward added on a crash' },
    add_walls: { type: 'boolean', default: true, description: 'Surround the lot with walls' },
  },
  maxEpisodeSteps: null,
  rewardRange: [-Infinity, 0],
  // Inside the walls the weighted distance is at most 0.70 + 0.3·0.42 + 0.02·2 + 0.02·2 = 0.906
  // (positions over 100 m), so each decision costs at most √0.906 < 1; then the crash. Without
  // walls the same bound is declared, and a failure never scores above its partial return.
  failureReturn: (p) => -decisions(p) + Math.min(0, num(p, 'collision_reward')),
  create: (p) =>
    new (impl().ParkingEnv)({
      simulationFrequency: num(p, 'simulation_frequency'),
      policyFrequency: num(p, 'policy_frequency'),
      duration: num(p, 'duration'),
      rewardWeights: [1, 0.3, 0, 0, 0.02, 0.02],
      successGoalReward: num(p, 'success_goal_reward'),
      collisionReward: num(p, 'collision_reward'),
      addWalls: bool(p, 'add_walls'),
    }),
  starterPolicy: PARKING_STARTER,
  declarations: HIGHWAY_DECLARATIONS,
  guide: `${PARKING_GUIDE}\n\n${DRIVING_TRAJECTORY_GUIDE}`,
  workspaceFiles: { 'policy/driving.ts': PARKING_MODULE },
};

const intersectionDefinition: EnvDefinition = {
  id: 'intersection-v0',
  family: 'highway',
  description: 'Turn left through a four-way intersection with right-of-way traffic, choosing only the speed; reward −5 on a crash, speed and arrival terms per second, 13 s.',
  params: {
    ...timingParams(15, 1),
    duration: { type: 'number', default: 13, min: 1, max: 1000, description: 'Episode length [s]; truncated when reached' },
    destination: { type: 'enum', default: 'o1', values: ['o1', 'o2', 'o3', 'random'], description: 'Exit of the ego route: o1 west (left turn), o2 north (straight), o3 east (right turn)' },
    initial_vehicle_count: { type: 'integer', default: 10, min: 1, max: 50, description: 'Spawn attempts before the warm-up' },
    spawn_probability: { type: 'number', default: 0.6, min: 0, max: 1, description: 'Chance of a new vehicle after each step' },
    collision_reward: { type: 'number', default: -5, description: 'Reward weight of a collision' },
    high_speed_reward: { type: 'number', default: 1, description: 'Reward weight of speed, linear over reward_speed_min..max, clipped to [0, 1]' },
    arrived_reward: { type: 'number', default: 1, description: 'Reward once past the exit (replaces the others)' },
    reward_speed_min: { type: 'number', default: 7.0, description: 'Speed with zero speed reward [m/s]' },
    reward_speed_max: { type: 'number', default: 9.0, description: 'Speed with full speed reward [m/s]' },
    normalize_reward: { type: 'boolean', default: false, description: 'Map the reward from [collision, arrived] to [0, 1]' },
    offroad_terminal: { type: 'boolean', default: false, description: 'End the episode when the ego vehicle leaves the road' },
    ...kinematicsParams(INTERSECTION_KINEMATICS),
  },
  maxEpisodeSteps: null,
  rewardRange: [-Infinity, Infinity],
  // Speed and arrival terms are never negative: only the crash that ends the episode is
  // (normalized, nothing is).
  failureReturn: (p) => (bool(p, 'normalize_reward') ? 0 : Math.min(0, num(p, 'collision_reward'))),
  create: (p) =>
    new (impl().IntersectionEnv)({
      simulationFrequency: num(p, 'simulation_frequency'),
      policyFrequency: num(p, 'policy_frequency'),
      duration: num(p, 'duration'),
      destination: p['destination'] === 'random' ? null : (p['destination'] as string),
      initialVehicleCount: num(p, 'initial_vehicle_count'),
      spawnProbability: num(p, 'spawn_probability'),
      collisionReward: num(p, 'collision_reward'),
      highSpeedReward: num(p, 'high_speed_reward'),
      arrivedReward: num(p, 'arrived_reward'),
      rewardSpeedRange: [num(p, 'reward_speed_min'), num(p, 'reward_speed_max')],
      normalizeReward: bool(p, 'normalize_reward'),
      offroadTerminal: bool(p, 'offroad_terminal'),
      observation: kinematicsFrom(p, INTERSECTION_KINEMATICS),
    }),
  ...roadFiles('intersection-v0'),
};

export const highwayEnvironments: readonly EnvDefinition[] = [
  highwayDefinition(false),
  highwayDefinition(true),
  mergeDefinition,
  roundaboutDefinition,
  intersectionDefinition,
  parkingDefinition,
];
