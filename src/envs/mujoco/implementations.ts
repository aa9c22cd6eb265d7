/**
 * The engine loader and the environment classes: what the definitions (index.ts, fetch/index.ts)
 * require on the first create or `load`, so a process that never makes a MuJoCo environment
 * never runs this code nor holds the vendored model texts (assets/models.generated.ts).
 */
export { prepareModel } from './engine';
export { AntEnv } from './ant';
export { PusherEnv, ReacherEnv } from './arms';
export { HumanoidEnv, HumanoidStandupEnv } from './humanoid';
export { InvertedDoublePendulumEnv, InvertedPendulumEnv } from './pendulums';
export { HalfCheetahEnv, HopperEnv, SwimmerEnv, Walker2dEnv } from './planar';
export { FetchEnv } from './fetch/fetchEnv';
