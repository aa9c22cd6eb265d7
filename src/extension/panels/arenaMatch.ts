/**
 * A recorded arena match (src/protocol/arena.ts: `ctf-match/1`, `connect-four-match/1`) as the
 * replay panel's plain trajectory: one snapshot per frame in the shape the match renderers draw
 * (webview-ui/replay/renderers/ctf.ts, connectFour.ts), rewards from the submission's side.
 * Plain Node, no `vscode`: unit-tested on matches played by the real games.
 */
import { CONNECT_FOUR_MATCH_FORMAT, CTF_MATCH_FORMAT, type ConnectFourStep, type CtfStep, type MatchHeader, type MatchTrajectory } from '../../protocol/arenaMatch';
import type { Trajectory, TrajectoryStep } from '../../protocol/episodes';
import { DEFAULT_CTF } from '../../envs/arena';
import { DT } from '../../envs/arena/ctf/rules';

/** The replay renderer family of each match format. */
export const MATCH_FAMILY: Readonly<Record<string, string>> = {
  [CTF_MATCH_FORMAT]: 'arena/ctf',
  [CONNECT_FOUR_MATCH_FORMAT]: 'arena/connect-four',
};

export function matchFamily(header: MatchHeader): string {
  return MATCH_FAMILY[header.format] ?? 'unknown';
}

export function matchToTrajectory(m: MatchTrajectory): Trajectory {
  return m.header.format === CTF_MATCH_FORMAT ? ctfTrajectory(m) : connectFourTrajectory(m);
}

/** The side an agent plays for: its id starts with the side's name (`blue_0`), else by position. */
function teamsOf(h: MatchHeader): string[] {
  return h.agents.map((id, i) => h.sides.find((s) => id === s || id.startsWith(`${s}_`)) ?? h.sides[i < h.agents.length / 2 ? 0 : 1]);
}

function ctfTrajectory(m: MatchTrajectory): Trajectory {
  const h = m.header;
  const teams = teamsOf(h);
  const field = h.field ?? { length: DEFAULT_CTF.length, width: DEFAULT_CTF.width };
  const maxSteps = typeof h.params['maxSteps'] === 'number' ? h.params['maxSteps'] : DEFAULT_CTF.maxSteps;
  const own = h.submissionSide;
  const snapshot = (s: CtfStep) => ({
    kind: 'capture-the-flag',
    field: { length: field.length, width: field.width },
    step: s.t,
    dt: DT,
    maxSteps,
    captures: { ...s.captures },
    agents: s.agents.map(([x, y, heading, tagged, carrying], i) => ({ id: h.agents[i] ?? `agent_${i}`, team: teams[i] ?? '?', x, y, h: heading, tagged: tagged === 1, carrying: carrying === 1 })),
    flags: Object.entries(s.flags).map(([team, [x, y, carrier]]) => ({ team, x, y, carrier })),
    events: s.events ?? [],
  });
  const raw = m.steps as CtfStep[];
  const first = raw[0];
  const initial = first !== undefined && first.t === 0 ? first : undefined;
  const played = initial ? raw.slice(1) : raw;
  let prev = initial?.captures ?? {};
  const steps: TrajectoryStep[] = played.map((s, i) => {
    // A capture is +1 for the side that scored and -1 for the other, as the game's own rewards.
    let reward = 0;
    for (const [team, n] of Object.entries(s.captures)) reward += (team === own ? 1 : -1) * (n - (prev[team] ?? 0));
    prev = s.captures;
    const last = i === played.length - 1;
    return {
      action: null,
      reward,
      terminated: last && m.outcome !== null && !m.outcome.truncated,
      truncated: last && m.outcome?.truncated === true,
      snapshot: snapshot(s),
      ...(s.events?.length ? { info: { events: s.events } } : {}),
    };
  });
  return { ...(initial ? { initialSnapshot: snapshot(initial) } : {}), steps, truncated: m.outcome === null };
}

function connectFourTrajectory(m: MatchTrajectory): Trajectory {
  const h = m.header;
  const rows = h.rows ?? 6, cols = h.cols ?? 7;
  const board = new Array<number>(rows * cols).fill(0);
  const seat = (side: string): number => (side === h.sides[0] ? 1 : 2);
  const other = (side: string): string => (side === h.sides[0] ? h.sides[1] : h.sides[0]);
  const winner = (): string | null => {
    const o = m.outcome;
    if (o === null) return null;
    const [a, b] = h.sides;
    const sa = o.scores[a] ?? 0, sb = o.scores[b] ?? 0;
    return sa > sb ? a : sb > sa ? b : 'draw';
  };
  const snap = (toMove: string | null, win: string | null, lastMove: number | null) => ({ kind: 'connect-four', rows, cols, board: [...board], toMove, winner: win, lastMove });
  const moves = m.steps as ConnectFourStep[];
  const steps: TrajectoryStep[] = moves.map((s, i) => {
    const last = i === moves.length - 1;
    // An illegal move (a full or missing column) leaves the board as it was: the game records the loss.
    for (let r = rows - 1; r >= 0; r--) {
      if (s.column < 0 || s.column >= cols) break;
      if (board[r * cols + s.column] === 0) {
        board[r * cols + s.column] = seat(s.mover);
        break;
      }
    }
    const win = last ? winner() : null;
    const reward = win === null || win === 'draw' ? 0 : win === h.submissionSide ? 1 : -1;
    return {
      action: { [s.mover]: s.column },
      reward,
      terminated: last && m.outcome !== null && !m.outcome.truncated,
      truncated: last && m.outcome?.truncated === true,
      snapshot: snap(win === null ? other(s.mover) : null, win, s.column),
    };
  });
  const initial = { kind: 'connect-four', rows, cols, board: new Array<number>(rows * cols).fill(0), toMove: h.sides[0], winner: null, lastMove: null };
  return { initialSnapshot: initial, steps, truncated: m.outcome === null };
}
