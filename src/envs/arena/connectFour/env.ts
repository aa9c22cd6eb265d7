/**
 * Connect Four as a turn-based multi-agent game: `red` moves first, then `yellow`; one agent is
 * active per step. Each agent observes the board from its own side (1 own disc, -1 the
 * opponent's, 0 empty; row 0 at the top) and chooses a column. A move into a full column is an
 * illegal move and loses the game on the spot, so no game can stall.
 */
import { EMPTY_INFO, type EnvState, type ResetOptions } from '../../core/env';
import type { AgentId, MultiAgentEnv, MultiResetResult, MultiStepResult, PerAgent } from '../../core/multiAgent';
import { Box, Discrete, type Space } from '../../core/spaces';
import { COLS, ROWS, canDrop, drop, emptyBoard, winsAt } from './board';

const AGENTS = ['red', 'yellow'] as const;
const OBS = new Box<Int32Array>(-1, 1, [ROWS * COLS], 'int32');
const ACT = new Discrete(COLS);

export interface ConnectFourState {
  board: number[];
  toMove: 0 | 1;
  winner: 'red' | 'yellow' | 'draw' | null;
  moves: number[];
  illegal: boolean;
}

export class ConnectFourEnv implements MultiAgentEnv {
  readonly agents: readonly AgentId[] = AGENTS;
  readonly sides = { red: ['red'], yellow: ['yellow'] } as const;
  private board = emptyBoard();
  private toMove: 0 | 1 = 0;
  private winner: ConnectFourState['winner'] = null;
  private moves: number[] = [];
  private illegal = false;

  observationSpace(_agent: AgentId): Space {
    return OBS;
  }
  actionSpace(_agent: AgentId): Space {
    return ACT;
  }

  activeAgents(): readonly AgentId[] {
    return this.winner === null ? [AGENTS[this.toMove]] : [];
  }

  reset(_opts?: ResetOptions): MultiResetResult {
    // Connect Four has no randomness: the seed only matters to the players.
    this.board = emptyBoard();
    this.toMove = 0;
    this.winner = null;
    this.moves = [];
    this.illegal = false;
    return { observations: this.observe(), info: EMPTY_INFO };
  }

  step(actions: PerAgent<unknown>): MultiStepResult {
    if (this.winner !== null) throw new Error('ConnectFour: step() after the game ended; call reset() first');
    const mover = AGENTS[this.toMove];
    const col = actions[mover] as number;
    const rewards: PerAgent<number> = { red: 0, yellow: 0 };
    const other = AGENTS[1 - this.toMove] as 'red' | 'yellow';
    if (!canDrop(this.board, col)) {
      this.illegal = true;
      this.winner = other;
    } else {
      const row = drop(this.board, col, (this.toMove + 1) as 1 | 2);
      this.moves.push(col);
      if (winsAt(this.board, row, col)) this.winner = mover;
      else if (this.moves.length === ROWS * COLS) this.winner = 'draw';
      else this.toMove = (1 - this.toMove) as 0 | 1;
    }
    if (this.winner === 'red' || this.winner === 'yellow') {
      rewards[this.winner] = 1;
      rewards[this.winner === 'red' ? 'yellow' : 'red'] = -1;
    }
    return {
      observations: this.observe(),
      rewards,
      terminated: this.winner !== null,
      truncated: false,
      info: this.illegal ? { illegal_move: mover, column: col } : EMPTY_INFO,
    };
  }

  scores(): Readonly<Record<string, number>> {
    if (this.winner === 'red') return { red: 1, yellow: -1 };
    if (this.winner === 'yellow') return { red: -1, yellow: 1 };
    return { red: 0, yellow: 0 };
  }

  getState(): EnvState {
    const s: ConnectFourState = { board: [...this.board], toMove: this.toMove, winner: this.winner, moves: [...this.moves], illegal: this.illegal };
    return s;
  }

  setState(state: EnvState): void {
    const s = state as ConnectFourState;
    this.board = Int8Array.from(s.board);
    this.toMove = s.toMove;
    this.winner = s.winner;
    this.moves = [...s.moves];
    this.illegal = s.illegal;
  }

  snapshot(): unknown {
    return { kind: 'connect-four', rows: ROWS, cols: COLS, board: [...this.board], toMove: AGENTS[this.toMove], winner: this.winner, lastMove: this.moves.at(-1) ?? null };
  }

  renderText(): string {
    const glyph = ['.', 'R', 'Y'];
    const lines: string[] = [];
    for (let r = 0; r < ROWS; r++) lines.push(Array.from({ length: COLS }, (_, c) => glyph[this.board[r * COLS + c] as number]).join(' '));
    lines.push(Array.from({ length: COLS }, (_, c) => String(c)).join(' '));
    return lines.join('\n');
  }

  /** The raw board (1 red, 2 yellow), for built-in opponents that read the game directly. */
  get cells(): Int8Array {
    return this.board;
  }

  private observe(): PerAgent<unknown> {
    const red = new Int32Array(ROWS * COLS);
    const yellow = new Int32Array(ROWS * COLS);
    for (let i = 0; i < ROWS * COLS; i++) {
      const v = this.board[i];
      if (v === 1) { red[i] = 1; yellow[i] = -1; }
      else if (v === 2) { red[i] = -1; yellow[i] = 1; }
    }
    return { red, yellow };
  }
}
