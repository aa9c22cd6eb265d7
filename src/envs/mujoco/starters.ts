/** Starter policies for the MuJoCo family: small, readable baselines a workspace begins from. */

/** An open-loop gait: every actuator follows a sine wave with its own phase. */
function sineGait(id: string, n: number, limit: number, hz: number, dt: number, phases: readonly number[], amplitude: number): string {
  return `/**
 * ${id} starter: an open-loop gait. Each of the ${n} actuators follows a sine wave of
 * ${hz} Hz with its own phase; nothing is read from the observation. A closed-loop controller
 * (read joint angles and velocities from the observation, see AGENTS.md) does far better.
 */
const DT = ${dt}; // seconds of simulated time per step (timestep × frame_skip)
const PHASES = ${JSON.stringify(phases)};

export class Policy {
  private t = 0;

  reset(): void {
    this.t = 0;
  }

  act(_o: Observation): Action {
    const wave = 2 * Math.PI * ${hz} * this.t;
    this.t += DT;
    return PHASES.map((p) => Math.max(-${limit}, Math.min(${limit}, ${amplitude} * Math.sin(wave + p))));
  }
}
`;
}

const spread = (n: number, step: number): number[] => Array.from({ length: n }, (_, i) => Math.round(((i * step) % (2 * Math.PI)) * 1000) / 1000);

export const mujocoStarters: Readonly<Record<string, string>> = {
  'HalfCheetah-v5': sineGait('HalfCheetah-v5', 6, 1, 3, 0.05, [0, 5.08, 3.88, 3.14, 1.98, 0.78], 1),
  'Ant-v5': sineGait('Ant-v5', 8, 1, 1.5, 0.05, [0, 1.57, 3.14, 4.71, 3.14, 4.71, 0, 1.57], 0.6),
  'Hopper-v5': sineGait('Hopper-v5', 3, 1, 2, 0.008, [0, 1.57, 3.14], 0.05),
  'Walker2d-v5': sineGait('Walker2d-v5', 6, 1, 1.5, 0.008, [0, 1.57, 3.14, 3.14, 4.71, 0], 0.4),
  'Swimmer-v5': sineGait('Swimmer-v5', 2, 1, 0.5, 0.04, [0, 4.71], 1),
  'Humanoid-v5': sineGait('Humanoid-v5', 17, 0.4, 1, 0.015, spread(17, 1.1), 0.1),
  'HumanoidStandup-v5': sineGait('HumanoidStandup-v5', 17, 0.4, 0.5, 0.015, spread(17, 0.7), 0.4),
  'Reacher-v5': `/**
 * Reacher-v5 starter: a PD controller that pulls the fingertip toward the target through the
 * arm's Jacobian transpose. The observation gives cos/sin of both joint angles, the target's
 * position, both joint velocities and fingertip − target.
 */
const L1 = 0.1; // shoulder to elbow (m)
const L2 = 0.11; // elbow to fingertip (m)
const KP = 12;
const KD = 0.6;

export class Policy {
  act(o: Observation): Action {
    const q1 = Math.atan2(o[2]!, o[0]!);
    const q2 = Math.atan2(o[3]!, o[1]!);
    const s1 = Math.sin(q1), c1 = Math.cos(q1);
    const s12 = Math.sin(q1 + q2), c12 = Math.cos(q1 + q2);
    // Force toward the target at the fingertip, mapped to joint torques by Jᵀ.
    const fx = -KP * o[8]!;
    const fy = -KP * o[9]!;
    const t1 = (-L1 * s1 - L2 * s12) * fx + (L1 * c1 + L2 * c12) * fy - KD * o[6]! * 0.1;
    const t2 = -L2 * s12 * fx + L2 * c12 * fy - KD * o[7]! * 0.1;
    return [Math.max(-1, Math.min(1, t1)), Math.max(-1, Math.min(1, t2))];
  }
}
`,
  'Pusher-v5': `/**
 * Pusher-v5 starter: a joint-space PD controller that holds the arm in a pose reaching toward
 * the table's centre, with velocity damping. Observation: 7 joint angles, 7 joint velocities,
 * then the 3D positions of the fingertip, the object and the goal (see AGENTS.md).
 */
const TARGET = [0.2, 0.4, 0, -1.2, 0, -0.6, 0];
const KP = 1.5;
const KD = 0.3;

export class Policy {
  act(o: Observation): Action {
    const a: number[] = [];
    for (let i = 0; i < 7; i++) a.push(Math.max(-2, Math.min(2, KP * (TARGET[i]! - o[i]!) - KD * o[7 + i]!)));
    return a;
  }
}
`,
  'InvertedPendulum-v5': `/**
 * InvertedPendulum-v5 starter: a linear state feedback that keeps the pole upright while
 * drifting the cart back to the centre. Observation: [cart x, pole angle, cart velocity, pole angular velocity].
 */
const K = [1, 10, 1.5, 1.2];

export class Policy {
  act(o: Observation): Action {
    let u = 0;
    for (let i = 0; i < 4; i++) u += K[i]! * o[i]!;
    return [Math.max(-3, Math.min(3, u))];
  }
}
`,
  'InvertedDoublePendulum-v5': `/**
 * InvertedDoublePendulum-v5 starter: a linear state feedback on the cart and both pole angles.
 * Observation: [cart x, sin θ1, sin θ2, cos θ1, cos θ2, cart velocity, θ1', θ2', constraint force].
 */
// Pushing the cart against the lean catches the poles (negative gains in this model's frame).
const K = { x: 0, a1: -3, a2: -8, v: 0, w1: -0.3, w2: -0.6 };

export class Policy {
  act(o: Observation): Action {
    const a1 = Math.atan2(o[1]!, o[3]!);
    const a2 = Math.atan2(o[2]!, o[4]!);
    const u = K.x * o[0]! + K.a1 * a1 + K.a2 * a2 + K.v * o[5]! + K.w1 * o[6]! + K.w2 * o[7]!;
    return [Math.max(-1, Math.min(1, u))];
  }
}
`,
};
