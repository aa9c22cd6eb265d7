/** What an arena workspace starts with: starter policies, env.d.ts additions, AGENTS.md guides. */
import { AGENT_FIELDS } from './ctf/rules';

/** Merged into the generated PolicyContext: the side the policy plays and its agents. */
export const SIDE_CONTEXT_DECLARATIONS = (sides: string): string => `/** Arena games: the side this policy plays in this game, and its own agents (the observation's and the action's keys). */
interface PolicyContext {
  readonly side: ${sides};
  readonly ownAgents: readonly string[];
}`;

export function ctfDeclarations(): string {
  return `// CaptureTheFlag-v0 observation layout (a comment only: read it, nothing is declared).
/**
 * One agent's observation (Float64Array, every value in [-1, 1]), seen so that its own half is
 * x < 0.5 and it attacks towards x = 1 whichever team it plays. Blocks of ${AGENT_FIELDS} fields
 * [x, y, cos heading, sin heading, speed fraction, tagged 0/1, carrying the flag 0/1] for: the agent
 * itself, its teammates, then the opponents (teamSize blocks each, so index CTF.block(i));
 * after them own flag [x, y, taken], enemy flag [x, y, taken], time left fraction.
 * Positions are fractions of the field (ctx.params.length × ctx.params.width metres).
 */`;
}

export const CTF_STARTER = `/**
 * CaptureTheFlag-v0 starter: every agent of our team runs for the enemy flag, carries it home,
 * and returns to its own flag when tagged. No defence at all: beat the built-in teams by adding it.
 *
 * Each agent's observation (see env.d.ts): blocks of 7 fields [x, y, cos, sin, speed, tagged,
 * carrying] for itself, its teammates and the opponents; then own flag [x, y, taken], enemy flag
 * [x, y, taken], time left. Own half is x < 0.5 whichever side we play. Action per own agent:
 * [speed, turn], both in [-1, 1].
 */
const FIELDS = 7;

export class Policy {
  private readonly agents: readonly string[];
  private readonly length: number;
  private readonly width: number;
  private readonly flagAt: number;

  constructor(ctx: PolicyContext) {
    this.agents = ctx.ownAgents;
    this.length = ctx.params.length;
    this.width = ctx.params.width;
    this.flagAt = FIELDS * 2 * ctx.params.teamSize;
  }

  act(observation: Observation): Action {
    const out: Action = {};
    for (const agent of this.agents) {
      const o = observation[agent]!;
      const tagged = o[5] === 1, carrying = o[6] === 1;
      const f = this.flagAt;
      let tx: number, ty: number;
      if (tagged) { tx = o[f]!; ty = o[f + 1]!; }
      else if (carrying) { tx = 0.4; ty = o[1]!; }
      else { tx = o[f + 3]!; ty = o[f + 4]!; }
      out[agent] = this.steer(o, tx, ty);
    }
    return out;
  }

  private steer(o: Float64Array, tx: number, ty: number): [number, number] {
    const want = Math.atan2((ty - o[1]!) * this.width, (tx - o[0]!) * this.length);
    let diff = want - Math.atan2(o[3]!, o[2]!);
    while (diff > Math.PI) diff -= 2 * Math.PI;
    while (diff < -Math.PI) diff += 2 * Math.PI;
    return [1, Math.max(-1, Math.min(1, diff / 0.3))];
  }
}
`;

export const CONNECT_FOUR_STARTER = `/**
 * ConnectFour-v0 starter: win at once when it can, otherwise play the legal column nearest the
 * centre. It never blocks the opponent: start there.
 *
 * Observation per own agent (one: ctx.ownAgents[0]): 42 cells, row 0 at the top, index
 * row * 7 + column; 1 our disc, -1 the opponent's, 0 empty. Action: a column 0..6. A move into
 * a full column loses the game.
 */
const ROWS = 6, COLS = 7;
const ORDER = [3, 2, 4, 1, 5, 0, 6];

export class Policy {
  private readonly me: string;

  constructor(ctx: PolicyContext) {
    this.me = ctx.ownAgents[0]!;
  }

  act(observation: Observation): Action {
    const board = Array.from(observation[this.me]!);
    const legal = ORDER.filter((c) => board[c] === 0);
    for (const c of legal) if (wins(board, c)) return { [this.me]: c };
    return { [this.me]: legal[0] ?? 0 };
  }
}

function wins(board: number[], col: number): boolean {
  let row = ROWS - 1;
  while (row >= 0 && board[row * COLS + col] !== 0) row--;
  if (row < 0) return false;
  const at = (r: number, c: number) => r >= 0 && r < ROWS && c >= 0 && c < COLS && (r === row && c === col ? 1 : board[r * COLS + c]) === 1;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
    let n = 1;
    for (let k = 1; at(row + dr * k, col + dc * k); k++) n++;
    for (let k = 1; at(row - dr * k, col - dc * k); k++) n++;
    if (n >= 4) return true;
  }
  return false;
}
`;

export const CTF_GUIDE = `## CaptureTheFlag-v0 (arena run)
This is an **arena run**: the budget counts **games**, and each submission plays the opponent pool
(built-in teams \`random\`, \`defensive\`, \`aggressive\`, \`planner\`, plus champions promoted from
earlier submissions). Your policy plays one team (\`ctx.side\`, blue or red, alternating between games)
and returns an action for each of its agents (\`ctx.ownAgents\`).

- Observation: a record agent id → Float64Array. Per agent: blocks of 7 fields
  [x, y, cos heading, sin heading, speed fraction, tagged, carrying] for itself, its teammates, then the
  opponents; then own flag [x, y, taken], enemy flag [x, y, taken], time left fraction. Every agent
  sees the field mirrored so that its own half is x < 0.5: one policy plays either team.
- Action: a record agent id → [speed, turn] in [-1, 1]² (speed → 0..6 m/s within 4 m/s², turn → ±1.2 rad/s).
- Rules: grab the enemy flag by reaching it (5 m), score by carrying it into your half; a defender in its
  own half tags an intruder within 5 m, who drops the flag and must touch its own flag's home before it
  plays again. The game ends at \`capturesToWin\` captures or after \`maxSteps\` steps of 0.25 s.
- A game is won by scoring more captures. A policy that throws, times out or gives an invalid action loses that game.
`;

export const CONNECT_FOUR_GUIDE = `## ConnectFour-v0 (arena run)
This is an **arena run**: the budget counts **games**, and each submission plays the opponent pool
(built-in players \`random\`, \`defensive\`, \`aggressive\`, \`minimax\`, plus promoted champions).
Your policy is one player (\`ctx.side\`: red moves first, yellow second; it alternates between games).

- Observation: a record with one entry, \`ctx.ownAgents[0]\` → Int32Array of 42 cells, row 0 at the top,
  index row·7 + column; 1 your disc, −1 the opponent's, 0 empty. You only see positions where it is your move.
- Action: \`{ [ctx.ownAgents[0]]: column }\`, a column 0–6. A move into a full column loses the game.
- A policy that throws, times out or gives an invalid action loses that game.
`;
