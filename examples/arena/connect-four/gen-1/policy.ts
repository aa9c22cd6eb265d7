/**
 * ConnectFour-v0, generation 1: win at once if we can, block the opponent's immediate win,
 * otherwise play the most central open column.
 */
type Board = ArrayLike<number>; // 42 cells, row 0 at the top: 1 ours, -1 theirs, 0 empty
interface Ctx { readonly ownAgents: readonly string[] }

const ROWS = 6, COLS = 7;
const CENTRE_FIRST = [3, 2, 4, 1, 5, 0, 6];

export class Policy {
  private readonly me: string;

  constructor(ctx: Ctx) {
    this.me = ctx.ownAgents[0] as string;
  }

  act(observation: Record<string, Board>): Record<string, number> {
    const board = Array.from(observation[this.me] as Board);
    const open = CENTRE_FIRST.filter((c) => board[c] === 0);
    const win = open.find((c) => wins(board, c, 1));
    const block = open.find((c) => wins(board, c, -1));
    return { [this.me]: win ?? block ?? (open[0] as number) };
  }
}

function wins(board: number[], col: number, who: number): boolean {
  let row = ROWS - 1;
  while (row >= 0 && board[row * COLS + col] !== 0) row--;
  if (row < 0) return false;
  const at = (r: number, c: number) => (r >= 0 && r < ROWS && c >= 0 && c < COLS ? board[r * COLS + c] : 0);
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
    let n = 1;
    for (let s = 1; s < 4 && at(row + dr * s, col + dc * s) === who; s++) n++;
    for (let s = 1; s < 4 && at(row - dr * s, col - dc * s) === who; s++) n++;
    if (n >= 4) return true;
  }
  return false;
}
