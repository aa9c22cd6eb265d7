/** AGENTS.md sections for the MuJoCo family: what every observation index and action means (default parameters). */

const common = `- Angles in radians, positions in metres, velocities per second; \`action\` values outside the control range are clamped by MuJoCo (the control cost uses the action as given).
- Rewards, termination and \`info\` follow Gymnasium v5; \`info\` carries every reward term (\`reward_*\`) so a policy can see what it is paid for.`;

/** How this family's trajectory files are laid out (src/protocol/mujocoTrajectory.ts); the AGENTS.md feedback section points here. */
export const mujocoTrajectoryGuide = `## Trajectory files (\`"format": "mujoco-delta/1"\`)
- The header's \`initialSnapshot\` holds \`qpos\` after reset, \`qposScale\` (1000: every stored qpos value is a whole number of thousandths of a metre or radian), \`terms\` (the \`info\` keys stored per step, e.g. \`["reward_forward", "reward_ctrl"]\`) and \`scene\` (the model, for the replay view).
- Then one line per step: \`action\` and \`reward\` rounded to 4 decimals, \`terminated\` / \`truncated\` only when true, \`terms\` (the values of the header's \`terms\`, in that order, 4 decimals) and \`qpos\` after the step (divide by 1000; the free-floating torso's x, y come first where the observation leaves them out). The exact return is in the header and \`summary.json\`.
- Not stored: the observation (log what you need from \`act\` with \`console.log\`; it goes to \`logs/case-III.txt\`, capped), and the \`info\` values that follow from the pose or the terms: \`x_position\`, \`y_position\`, \`distance_from_origin\`, \`z_distance_from_origin\` (from qpos), \`x_velocity\` (\`reward_forward\` ÷ the forward reward weight), \`y_velocity\`, \`tendon_length\`, \`tendon_velocity\`. \`act\` receives them all in \`info\`.`;

const planar = (id: string, joints: string[], extra: string): string => `## Observation and action (${id})
- \`observation\` (float64), with \`exclude_current_positions_from_observation\` (default) dropping the torso's x:
  0 torso height z, 1 torso pitch angle, ${joints.map((j, i) => `${i + 2} ${j} angle`).join(', ')};
  ${joints.length + 2} torso x velocity, ${joints.length + 3} torso z velocity, ${joints.length + 4} torso pitch rate, ${joints.map((j, i) => `${i + joints.length + 5} ${j} angular velocity`).join(', ')}.
- \`action\`: ${joints.length} torques in [-1, 1], one per joint in the order above.
${extra}
${common}`;

const guides: Record<string, string> = {
  'HalfCheetah-v5': planar('HalfCheetah-v5', ['back thigh', 'back shin', 'back foot', 'front thigh', 'front shin', 'front foot'], '- Reward: forward velocity of the torso − 0.1·Σaction². Never terminates; 1000 steps.'),
  'Hopper-v5': planar('Hopper-v5', ['thigh', 'leg', 'foot'], '- Velocities are clipped to ±10 in the observation. Reward: forward velocity + 1 while healthy − 0.001·Σaction². Ends when the torso drops below 0.7 m, tilts beyond ±0.2 rad, or any state value leaves ±100.'),
  'Walker2d-v5': planar('Walker2d-v5', ['right thigh', 'right leg', 'right foot', 'left thigh', 'left leg', 'left foot'], '- Velocities are clipped to ±10 in the observation. Reward: forward velocity + 1 while healthy − 0.001·Σaction². Ends when the torso height leaves 0.8–2 m or its angle leaves ±1 rad.'),
  'Swimmer-v5': `## Observation and action (Swimmer-v5)
- \`observation\` (8 float64): 0 front tip angle, 1 first joint angle, 2 second joint angle, 3 tip x velocity, 4 tip y velocity, 5 tip angular velocity, 6 first joint and 7 second joint angular velocity.
- \`action\`: 2 torques in [-1, 1] for the two joints.
- Reward: forward (x) velocity − 0.0001·Σaction². Never terminates; 1000 steps.
${common}`,
  'Ant-v5': `## Observation and action (Ant-v5)
- \`observation\` (105 float64 by default):
  0 torso height z; 1–4 torso orientation quaternion (w, x, y, z); 5–12 hip and ankle angles of the four legs (front-left hip, ankle, front-right hip, ankle, back-left hip, ankle, back-right hip, ankle);
  13–15 torso linear velocity (x, y, z); 16–18 torso angular velocity; 19–26 the eight joint angular velocities;
  27–104 external contact forces (cfrc_ext, 6 per body for the 13 bodies after the world, clipped to [-1, 1]).
- \`action\`: 8 torques in [-1, 1] in the joint order above.
- Reward: torso x velocity + 1 while healthy − 0.5·Σaction² − 0.0005·Σ(clipped contact force)². Ends when the torso height leaves 0.2–1 m (or the state is not finite).
${common}`,
  'Humanoid-v5': `## Observation and action (Humanoid-v5)
- \`observation\` (348 float64 by default): 0 torso z; 1–4 torso quaternion; 5–21 the 17 joint angles (abdomen z, y, x; right hip x, z, y; right knee; left hip x, z, y; left knee; right shoulder 1, 2; right elbow; left shoulder 1, 2; left elbow);
  22–44 velocities (6 torso, then 17 joints); 45–174 cinert (10 per body, 13 bodies); 175–252 cvel (6 per body); 253–269 qfrc_actuator of the 17 joints; 270–347 cfrc_ext (6 per body).
- \`action\`: 17 torques in [-0.4, 0.4] in the joint order above.
- Reward: 1.25·(centre-of-mass x velocity) + 5 while healthy − 0.1·Σctrl² − min(5e-7·Σcfrc_ext², 10). Ends when the torso height leaves 1–2 m.
${common}`,
  'HumanoidStandup-v5': `## Observation and action (HumanoidStandup-v5)
- \`observation\` (348 float64 by default): the same layout as Humanoid-v5 (torso z, quaternion, 17 joint angles, 23 velocities, cinert, cvel, qfrc_actuator, cfrc_ext).
- \`action\`: 17 torques in [-0.4, 0.4].
- Reward: torso height / timestep (0.003 s) − 0.1·Σctrl² − min(5e-7·Σcfrc_ext², 10) + 1. Never terminates; 1000 steps.
${common}`,
  'InvertedPendulum-v5': `## Observation and action (InvertedPendulum-v5)
- \`observation\` (4 float64): 0 cart position, 1 pole angle (0 upright), 2 cart velocity, 3 pole angular velocity.
- \`action\`: 1 force in [-3, 3] on the cart.
- Reward: +1 per step; the episode ends when |pole angle| > 0.2 rad.
${common}`,
  'InvertedDoublePendulum-v5': `## Observation and action (InvertedDoublePendulum-v5)
- \`observation\` (9 float64): 0 cart position; 1 sin and 3 cos of the first pole's angle; 2 sin and 4 cos of the second pole's angle (relative to the first); 5 cart velocity, 6 and 7 the poles' angular velocities (clipped to ±10); 8 the constraint force on the cart (clipped to ±10).
- \`action\`: 1 force in [-1, 1] on the cart.
- Reward: 10 − 0.01·x_tip² − (y_tip − 2)² − 0.001·ω1² − 0.005·ω2²; ends when the tip drops to 1 m or lower.
${common}`,
  'Reacher-v5': `## Observation and action (Reacher-v5)
- \`observation\` (10 float64): 0 cos and 2 sin of the shoulder angle, 1 cos and 3 sin of the elbow angle; 4, 5 the target's x, y; 6, 7 the joints' angular velocities; 8, 9 fingertip − target (x, y).
- \`action\`: 2 torques in [-1, 1] (shoulder, elbow).
- Reward: −|fingertip − target| − Σaction². Never terminates; 50 steps. The target is drawn uniformly in the disc of radius 0.2 m.
${common}`,
  'Pusher-v5': `## Observation and action (Pusher-v5)
- \`observation\` (23 float64): 0–6 the seven arm joint angles (shoulder pan, shoulder lift, upper-arm roll, elbow flex, forearm roll, wrist flex, wrist roll); 7–13 their angular velocities; 14–16 fingertip position; 17–19 object position; 20–22 goal position (x, y, z).
- \`action\`: 7 torques in [-2, 2] in the joint order above.
- Reward: −|object − goal| − 0.5·|object − fingertip| − 0.1·Σaction². Never terminates; 100 steps.
${common}`,
};

export function mujocoGuide(id: string): string {
  const g = guides[id];
  if (g === undefined) throw new Error(`no AGENTS.md section for ${id}`);
  return `${g}\n\n${mujocoTrajectoryGuide}`;
}
