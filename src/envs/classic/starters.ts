/** Starter policies: the small valid baseline each new classic-control workspace begins from. */

export const cartPoleStarter = `/**
 * CartPole-v1 starter policy: push toward the side the pole leans to.
 * observation = [cart position, cart velocity, pole angle, pole angular velocity]
 * action: 0 pushes left, 1 pushes right.
 */
export class Policy {
  private readonly weights = [0.0, 0.0, 1.0, 0.0];

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    let score = 0;
    for (let i = 0; i < 4; i++) score += this.weights[i]! * observation[i]!;
    return score > 0 ? 1 : 0;
  }
}
`;

export const mountainCarStarter = `/**
 * MountainCar-v0 starter policy: push in the direction of motion to pump energy.
 * observation = [position, velocity]; action: 0 left, 1 none, 2 right.
 */
export class Policy {
  private readonly deadband = 0.001;

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    const velocity = observation[1]!;
    if (velocity > this.deadband) return 2;
    if (velocity < -this.deadband) return 0;
    return 1;
  }
}
`;

export const mountainCarContinuousStarter = `/**
 * MountainCarContinuous-v0 starter policy: bang-bang force along the velocity.
 * observation = [position, velocity]; action = [force in -1..1] (the reward charges 0.1·force²).
 */
export class Policy {
  private readonly gain = 0.6;

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    const velocity = observation[1]!;
    return [velocity >= 0 ? this.gain : -this.gain];
  }
}
`;

export const pendulumStarter = `/**
 * Pendulum-v1 starter policy: a PD controller on the upright angle (no swing-up).
 * observation = [cos θ, sin θ, θ̇]; action = [torque in -2..2].
 */
export class Policy {
  private readonly kp = 5.0;
  private readonly kd = 1.0;

  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    const angle = Math.atan2(observation[1]!, observation[0]!);
    const torque = -this.kp * angle - this.kd * observation[2]!;
    return [Math.max(-2, Math.min(2, torque))];
  }
}
`;

export const acrobotStarter = `/**
 * Acrobot-v1 starter policy: apply torque along the first joint's angular velocity.
 * observation = [cos θ1, sin θ1, cos θ2, sin θ2, θ̇1, θ̇2]; action: 0 (−1), 1 (0), 2 (+1) torque.
 */
export class Policy {
  constructor(_ctx: PolicyContext) {}

  act(observation: Observation): Action {
    return observation[4]! > 0 ? 2 : 0;
  }
}
`;
