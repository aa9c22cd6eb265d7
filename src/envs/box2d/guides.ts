/** AGENTS.md sections and env.d.ts additions for the Box2D family: what every index means, and what a trajectory file holds. */
import { CAR_DELTA_FORMAT } from '../../protocol/carTrajectory';
import { LANDER_DELTA_FORMAT } from '../../protocol/landerTrajectory';
import { WALKER_DELTA_FORMAT } from '../../protocol/walkerTrajectory';

/** A body-local vertex (vx, vy) of a body at [x, y, angle] in world coordinates. */
const VERTEX_RULE = 'world vertex = (cos a·vx − sin a·vy + x, sin a·vx + cos a·vy + y)';

/** What the step lines of the pose layouts share (src/protocol/poseTrajectory.ts). */
const POSE_STEP_FIELDS = "`action`, `reward`, `terminated` / `truncated` only when true, `info` only when it differs from the step before, `next` (the observation after the step: the one `act` sees next; the header's `observation` is the one it saw first)";

export const lunarLanderGuide = `## Observation and action (LunarLander-v3, LunarLanderContinuous-v3)
- \`observation\` is 8 numbers (float32):
  0 \`x\`: horizontal position, 0 at the pad centre, ±1 at the screen edges (leaving |x| ≥ 1 ends the episode with −100);
  1 \`y\`: height above the pad level in half-screen-heights (the lander's centre sits ≈ 0 when standing on the pad);
  2 \`vx\`, 3 \`vy\`: velocity (x in units of 10 m/s per 50, i.e. m/s × 0.2; y × 0.133), up is positive;
  4 \`angle\`: radians, 0 upright, positive counter-clockwise;
  5 \`angular velocity\`: rad/s × 0.4;
  6, 7: 1 when the left / right leg touches the ground, else 0.
- Discrete \`action\` (default): 0 nothing, 1 fire the left orientation engine (pushes the nose right, turns clockwise), 2 main engine, 3 right orientation engine.
- With \`continuous: true\`, \`action\` is \`[main, lateral]\` in [-1, 1] (clipped): main fires at 50–100 % power for main in (0, 1], off for ≤ 0; lateral < −0.5 fires the left engine, > 0.5 the right one, at 50–100 %.
- Reward per step: the change of a shaping score (−100·distance to the pad, −100·speed, −100·|angle|, +10 per leg on the ground), −0.3 per full-power main-engine frame, −0.03 per side-engine frame. The episode ends with +100 when the lander comes to rest (Box2D puts it to sleep) and −100 when its body touches the moon or it leaves the screen. 200 points counts as solved.
- Each step every engine's thrust point is jittered randomly, and the reset pushes the lander with a random force: no two episodes fly the same.

## Trajectory files (\`"format": "${LANDER_DELTA_FORMAT}"\`)
- The header's \`initialSnapshot\`: \`world\` (the moon: \`terrain\` [[x, y], …], the pad from \`helipadX1\` to \`helipadX2\` at height \`helipadY\`), \`shapes\` (\`lander\`: the lander's body-local polygons, \`legs\`: left, right, each as x, y, x, y, …), \`observation\` (after reset), and the pose after reset: \`bodies\`, \`groundContact\`, \`enginePower\`.
- Then one line per step: ${POSE_STEP_FIELDS}; \`bodies\` [[x, y, angle] of the lander, the left leg, the right leg] in metres and radians, \`groundContact\` [left, right] and \`enginePower\` [main, side] (0 when off) after the step. A polygon's ${VERTEX_RULE}.`;

export const lunarLanderDeclarations = `/** LunarLander-v3's observation, index by index (see AGENTS.md). */
type LanderObservation = [x: number, y: number, vx: number, vy: number, angle: number, angularVelocity: number, leftLegContact: 0 | 1, rightLegContact: 0 | 1];
/** Discrete actions: 0 nothing, 1 left orientation engine, 2 main engine, 3 right orientation engine. Continuous: [main, lateral]. */
type LanderAction = 0 | 1 | 2 | 3 | [main: number, lateral: number];`;

export const bipedalWalkerGuide = `## Observation and action (BipedalWalker-v3, BipedalWalkerHardcore-v3)
- \`observation\` is 24 numbers (float32):
  0 hull angle (rad, 0 level, positive nose-up/counter-clockwise); 1 hull angular velocity (rad/s × 0.04);
  2 horizontal and 3 vertical hull velocity (m/s × 0.12 and × 0.08);
  4 left hip angle (rad, −0.8…1.1), 5 left hip speed (rad/s ÷ 4);
  6 left knee angle + 1 (knee range −1.6…−0.1, so 6 lies in −0.6…0.9), 7 left knee speed (rad/s ÷ 6);
  8 1 when the left lower leg touches the ground;
  9–13 the same five values for the right leg;
  14–23 ten lidar rays from the hull centre, fanning from straight down (14) to 77° forward (23), 160/30 ≈ 5.3 m long: the fraction of the ray before it hits the terrain (1 = nothing within range).
- \`action\` is 4 motor commands in [-1, 1]: left hip, left knee, right hip, right knee. The sign sets the direction (the motor turns at 4 rad/s at the hip, 6 rad/s at the knee), the magnitude the torque limit (|a|·80 N·m).
- Reward per step: 130/30 per metre the hull moves forward, −5 × the change in |hull angle|, −0.028·|a| per motor. Falling (the hull touches the ground) ends the episode with −100; reaching the far end (x > 88 m) ends it too. 300 points counts as solved.
- The terrain is random per episode; hardcore adds stumps, stairs and pits. The lidar is the only view of what lies ahead.

## Trajectory files (\`"format": "${WALKER_DELTA_FORMAT}"\`)
- The header's \`initialSnapshot\`: the whole generated ground (\`terrainX\`, \`terrainY\`: the outline's points; \`obstacles\`: each stump, stair or pit wall as [[x, y], …]), \`lidarRange\` (metres), \`shapes\` (body-local vertices x, y, x, y, … of the hull, left upper leg, left lower leg, right upper leg, right lower leg), \`observation\` (after reset), and the pose after reset: \`bodies\`, \`groundContact\`, \`lidar\`.
- Then one line per step: ${POSE_STEP_FIELDS}; \`bodies\` [[x, y, angle] × 5, in the order of \`shapes\`], \`groundContact\` [left, right lower leg] and \`lidar\` (the 10 ray fractions) after the step. A body's ${VERTEX_RULE}.`;

export const bipedalWalkerDeclarations = `/** BipedalWalker-v3's observation: 14 body values, then 10 lidar fractions (see AGENTS.md). */
type WalkerObservationIndex = {
  hullAngle: 0; hullAngularVelocity: 1; vx: 2; vy: 3;
  leftHip: 4; leftHipSpeed: 5; leftKnee: 6; leftKneeSpeed: 7; leftContact: 8;
  rightHip: 9; rightHipSpeed: 10; rightKnee: 11; rightKneeSpeed: 12; rightContact: 13;
  lidarFirst: 14; lidarLast: 23;
};
/** [left hip, left knee, right hip, right knee] motor commands in -1..1. */
type WalkerAction = [leftHip: number, leftKnee: number, rightHip: number, rightKnee: number];`;

export const carRacingGuide = `## Observation and action (CarRacing-v3)
- \`observation\` is a 96×96 RGB image as a \`Uint8Array\` of 27648 bytes, row-major: the pixel at row \`y\` (0 = top), column \`x\` has red, green, blue at \`(y * 96 + x) * 3 + 0, 1, 2\`.
- The camera follows the car and turns with it: the car sits at about column 48, row 72, pointing up. Grey is road (slightly varying shades per tile), green is grass (two shades in a checker pattern), red/white stripes are kerbs on sharp bends. With \`domain_randomize: true\` the colours change every episode.
- Rows 84–95 are the indicator bar on black: from the left the score digits (not drawn here), then white = speed (bar height), four blue bars = wheel spin (front left, front right, rear left, rear right), green horizontal bar = steering, red horizontal bar = rotation speed.
- The first 50 steps zoom in from a wide view.
- Continuous \`action\` (default) is \`[steer, gas, brake]\`: steer in [-1, 1] (negative is left), gas and brake in [0, 1]. The rear wheels' throttle rises by at most 0.1 per step. Discrete (\`continuous: false\`): 0 nothing, 1 steer right, 2 steer left, 3 gas (0.2), 4 brake (0.8). That is what Gymnasium's code does (1 acts like steer +0.6); its documentation names 1 and 2 the other way round.
- Reward: +1000/N for each of the N track tiles the first time a wheel touches it, −0.1 per frame. The episode ends when every tile is visited (or the start line is crossed after \`lap_complete_percent\` of them), or with −100 when the car leaves the 333-unit playfield.

## Trajectory files (\`"format": "${CAR_DELTA_FORMAT}"\`)
- **No frames are stored**: the image \`act\` saw is not in the file (the replay draws the scene from the car and the track).
- The header's \`initialSnapshot\`: \`track\`, every road tile and kerb as { \`points\` (its four corners x, y, x, y, …), \`tile\` (the tile's index, −1 for a kerb), \`kerb\` ("red", "white" or null) }, \`tileCount\`, the car after reset (\`t\` seconds, \`hull\` { x, y, angle, vx, vy, w }, \`wheels\` [front left, front right, rear left, rear right] each { x, y, angle, omega (spin), phase, jointAngle (steering) }) and \`visited\` (tile indices already touched).
- Then one line per step: \`action\`, \`reward\`, \`terminated\` / \`truncated\` only when true, \`info\` only when it differs from the step before, and the car after the step: \`t\`, \`hull\` [x, y, angle, vx, vy, w], \`wheels\` [[x, y, angle, omega, phase, jointAngle] × 4], \`visited\` (the tiles first touched in this step, only when any). Angles are radians; a hull angle of 0 points the car along +y.`;

export const carRacingDeclarations = `/** CarRacing-v3 image: 96×96 RGB, index (y * 96 + x) * 3 + channel. */
declare const CAR_FRAME_WIDTH: 96;
/** [steer (-1 left .. 1 right), gas 0..1, brake 0..1]; discrete: 0 nothing, 1 right, 2 left, 3 gas, 4 brake. */
type CarAction = [steer: number, gas: number, brake: number] | 0 | 1 | 2 | 3 | 4;`;
