/**
 * Capture-the-flag constants and the observation layout, shared by the game and the built-in
 * opponents. Every agent sees the field mirrored so that its own half is x < 0.5 and it attacks
 * towards x = 1: one policy can play either side.
 */
export interface CtfConfig {
  teamSize: number;
  /** Field length (x, the axis the halves split) and width, in metres. */
  length: number;
  width: number;
  /** Game length in steps of `dt` seconds. */
  maxSteps: number;
  capturesToWin: number;
}

export const DT = 0.25;
export const MAX_SPEED = 6;
/** Speed change per second: agents cannot stop or start at once. */
export const MAX_ACCEL = 4;
export const MAX_TURN = 1.2;
export const TAG_RADIUS = 5;
export const GRAB_RADIUS = 5;
/** A tagged agent is back in play once this close to its own flag's home. */
export const HOME_RADIUS = 6;
export const TAG_COOLDOWN_STEPS = 12;

/** Per-agent block: x, y, cos heading, sin heading, speed fraction, tagged, carrying. */
export const AGENT_FIELDS = 7;
/** Own agent, teammates, opponents, then own flag (x, y, taken), enemy flag (x, y, taken), time left fraction. */
export function observationSize(teamSize: number): number {
  return AGENT_FIELDS * 2 * teamSize + 7;
}

/** Decoded view of one agent's observation (the layout AGENTS.md documents). */
export interface AgentView {
  x: number; y: number; cos: number; sin: number; speed: number; tagged: boolean; carrying: boolean;
}
export interface CtfView {
  self: AgentView;
  mates: AgentView[];
  foes: AgentView[];
  ownFlag: { x: number; y: number; taken: boolean };
  enemyFlag: { x: number; y: number; taken: boolean };
  timeLeft: number;
}

export function decode(obs: ArrayLike<number>, teamSize: number): CtfView {
  const agent = (i: number): AgentView => {
    const o = i * AGENT_FIELDS;
    return { x: obs[o] as number, y: obs[o + 1] as number, cos: obs[o + 2] as number, sin: obs[o + 3] as number, speed: obs[o + 4] as number, tagged: obs[o + 5] === 1, carrying: obs[o + 6] === 1 };
  };
  const f = AGENT_FIELDS * 2 * teamSize;
  return {
    self: agent(0),
    mates: Array.from({ length: teamSize - 1 }, (_, i) => agent(1 + i)),
    foes: Array.from({ length: teamSize }, (_, i) => agent(teamSize + i)),
    ownFlag: { x: obs[f] as number, y: obs[f + 1] as number, taken: obs[f + 2] === 1 },
    enemyFlag: { x: obs[f + 3] as number, y: obs[f + 4] as number, taken: obs[f + 5] === 1 },
    timeLeft: obs[f + 6] as number,
  };
}
