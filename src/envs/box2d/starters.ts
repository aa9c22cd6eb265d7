/** Starter policies for the Box2D family: small, readable baselines a workspace begins from. */

export const lunarLanderStarter = `/**
 * LunarLander-v3 starter: a proportional hover-and-level controller. It aims the nose toward
 * the pad, holds a target height that shrinks as the lander centres, and only brakes the fall
 * once a leg touches. Works for the discrete and the continuous action spaces.
 * observation = [x, y, vx, vy, angle, angular velocity, left leg contact, right leg contact]
 */
export class Policy {
  private readonly continuous: boolean;

  constructor(ctx: PolicyContext) {
    this.continuous = ctx.actionSpace.type === 'Box';
  }

  act(o: Observation): Action {
    let angleTarget = o[0]! * 0.5 + o[2]! * 1.0;
    angleTarget = Math.max(-0.4, Math.min(0.4, angleTarget));
    const hoverTarget = 0.55 * Math.abs(o[0]!);
    let angleTodo = (angleTarget - o[4]!) * 0.5 - o[5]! * 1.0;
    let hoverTodo = (hoverTarget - o[1]!) * 0.5 - o[3]! * 0.5;
    if (o[6]! || o[7]!) {
      angleTodo = 0;
      hoverTodo = -o[3]! * 0.5;
    }
    if (this.continuous) {
      return [Math.max(-1, Math.min(1, hoverTodo * 20 - 1)), Math.max(-1, Math.min(1, -angleTodo * 20))];
    }
    if (hoverTodo > Math.abs(angleTodo) && hoverTodo > 0.05) return 2;
    if (angleTodo < -0.05) return 3;
    if (angleTodo > 0.05) return 1;
    return 0;
  }
}
`;
