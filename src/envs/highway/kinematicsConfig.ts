/**
 * The Kinematics observation's options and their defaults: data the definitions (index.ts) turn
 * into parameters without loading the simulation (observation.ts builds the observation).
 */
export const KINEMATIC_FEATURES = ['presence', 'x', 'y', 'vx', 'vy', 'heading', 'cos_h', 'sin_h', 'cos_d', 'sin_d', 'long_off', 'lat_off', 'ang_off'] as const;
export type KinematicFeature = (typeof KINEMATIC_FEATURES)[number];

export type FeatureRanges = Partial<Record<KinematicFeature, readonly [number, number]>>;

export interface KinematicsConfig {
  features: readonly KinematicFeature[];
  vehiclesCount: number;
  /** Null: ±5·MAX_SPEED for x, ±4 m × lane count for y, ±2·MAX_SPEED for speeds, fixed at the first observation. */
  featuresRange: FeatureRanges | null;
  absolute: boolean;
  order: 'sorted' | 'shuffled';
  normalize: boolean;
  clip: boolean;
  seeBehind: boolean;
  observeIntentions: boolean;
  includeObstacles: boolean;
}

export const DEFAULT_KINEMATICS: KinematicsConfig = {
  features: ['presence', 'x', 'y', 'vx', 'vy'],
  vehiclesCount: 5,
  featuresRange: null,
  absolute: false,
  order: 'sorted',
  normalize: true,
  clip: true,
  seeBehind: false,
  observeIntentions: false,
  includeObstacles: true,
};
