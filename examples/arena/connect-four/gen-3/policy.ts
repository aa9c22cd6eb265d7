/**
 * ConnectFour-v0, generation 3: generation 2's search seven plies deep instead of six, so the
 * horizon ends on our own move (at six plies it ended on the opponent's, and the search was
 * blind to the reply it was walking into). Leaves are still scored by open windows of four and
 * the centre column.
 */
type Board = ArrayLike<number>; // 42 cells, row 0 at the top: 1 ours, -1 theirs, 0 empty
interface Ctx { readonly ownAgents: readonly string[] }

const ROWS = 6, COLS = 7;
const ORDER = [3, 2, 4, 1, 5, 0, 6];
const DEPTH = 7;
const WIN = 1_000_000;
const WINDOW = [0, 1, 5, 40, 0];

export class Policy {
  private readonly me: string;

  constructor(ctx: Ctx) {
    this.me = ctx.ownAgents[0] as string;
  }

  act(observation: Record<string, Board>): Record<string, number> {
    const b = Array.from(observation[this.me] as Board);
    let best = -Infinity, move = ORDER.find((c) => b[c] === 0) as number;
    for (const c of ORDER) {
      const r = drop(b, c, 1);
      if (r < 0) continue;
      const v = wonAt(b, r, c) ? WIN : -negamax(b, DEPTH - 1, -1, -Infinity, -best);
      b[r * COLS + c] = 0;
      if (v > best) { best = v; move = c; }
    }
    return { [this.me]: move };
  }
}

function negamax(b: number[], depth: number, who: number, alpha: number, beta: number): number {
  if (depth === 0) return who * evaluate(b);
  let best = -Infinity, any = false;
  for (const c of ORDER) {
    const r = drop(b, c, who);
    if (r < 0) continue;
    any = true;
    const v = wonAt(b, r, c) ? WIN + depth : -negamax(b, depth - 1, -who, -beta, -alpha);
    b[r * COLS + c] = 0;
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return any ? best : 0;
}

function drop(b: number[], col: number, who: number): number {
  for (let r = ROWS - 1; r >= 0; r--) {
    if (b[r * COLS + col] === 0) { b[r * COLS + col] = who; return r; }
  }
  return -1;
}

const DIRS = [[0, 1], [1, 0], [1, 1], [1, -1]] as const;

function wonAt(b: number[], row: number, col: number): boolean {
  const who = b[row * COLS + col];
  for (const [dr, dc] of DIRS) {
    let n = 1;
    for (let s = 1; s < 4; s++) { const r = row + dr * s, c = col + dc * s; if (r < 0 || r >= ROWS || c < 0 || c >= COLS || b[r * COLS + c] !== who) break; n++; }
    for (let s = 1; s < 4; s++) { const r = row - dr * s, c = col - dc * s; if (r < 0 || r >= ROWS || c < 0 || c >= COLS || b[r * COLS + c] !== who) break; n++; }
    if (n >= 4) return true;
  }
  return false;
}

/** From our side (1): open windows of four, and the centre column. */
function evaluate(b: number[]): number {
  let score = 0;
  for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) for (const [dr, dc] of DIRS) {
    const er = r + dr * 3, ec = c + dc * 3;
    if (er < 0 || er >= ROWS || ec < 0 || ec >= COLS) continue;
    let mine = 0, theirs = 0;
    for (let s = 0; s < 4; s++) { const v = b[(r + dr * s) * COLS + c + dc * s]; if (v === 1) mine++; else if (v === -1) theirs++; }
    if (theirs === 0) score += WINDOW[mine] as number;
    else if (mine === 0) score -= WINDOW[theirs] as number;
  }
  for (let r = 0; r < ROWS; r++) score += 3 * (b[r * COLS + 3] as number);
  return score;
}
