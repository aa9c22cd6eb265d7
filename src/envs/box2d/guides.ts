/** AGENTS.md sections and env.d.ts additions for the Box2D family: what every index means. */

export const lunarLanderGuide = `## Observation and action (LunarLander-v3)
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
- Each step every engine's thrust point is jittered randomly, and the reset pushes the lander with a random force: no two episodes fly the same.`;

export const lunarLanderDeclarations = `/** LunarLander-v3's observation, index by index (see AGENTS.md). */
type LanderObservation = [x: number, y: number, vx: number, vy: number, angle: number, angularVelocity: number, leftLegContact: 0 | 1, rightLegContact: 0 | 1];
/** Discrete actions: 0 nothing, 1 left orientation engine, 2 main engine, 3 right orientation engine. Continuous: [main, lateral]. */
type LanderAction = 0 | 1 | 2 | 3 | [main: number, lateral: number];`;
