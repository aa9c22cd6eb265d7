/**
 * Connect Four rules on a flat 6×7 board (row 0 at the top, as it is drawn): who may drop where,
 * what wins. Shared by the environment and the built-in opponents, so both apply one rule set.
 */
export const ROWS = 6;
export const COLS = 7;
/** Cell values: 0 empty, 1 the first player (red), 2 the second (yellow). */
export type Cell = 0 | 1 | 2;

export function emptyBoard(): Int8Array {
  return new Int8Array(ROWS * COLS);
}

export function canDrop(board: Int8Array, col: number): boolean {
  return col >= 0 && col < COLS && board[col] === 0;
}

export function legalColumns(board: Int8Array): number[] {
  const out: number[] = [];
  for (let c = 0; c < COLS; c++) if (board[c] === 0) out.push(c);
  return out;
}

/** Drops a disc; returns the row it landed in, or -1 when the column is full. */
export function drop(board: Int8Array, col: number, who: 1 | 2): number {
  for (let r = ROWS - 1; r >= 0; r--) {
    if (board[r * COLS + col] === 0) {
      board[r * COLS + col] = who;
      return r;
    }
  }
  return -1;
}

/** Removes the top disc of a column (search undoes its moves). */
export function undrop(board: Int8Array, col: number): void {
  for (let r = 0; r < ROWS; r++) {
    if (board[r * COLS + col] !== 0) {
      board[r * COLS + col] = 0;
      return;
    }
  }
}

const DIRS: readonly (readonly [number, number])[] = [[0, 1], [1, 0], [1, 1], [1, -1]];

/** True when the disc at (row, col) completes four in a line. */
export function winsAt(board: Int8Array, row: number, col: number): boolean {
  const who = board[row * COLS + col];
  if (!who) return false;
  for (const [dr, dc] of DIRS) {
    let n = 1;
    for (let s = 1; s < 4; s++) {
      const r = row + dr * s, c = col + dc * s;
      if (r < 0 || r >= ROWS || c < 0 || c >= COLS || board[r * COLS + c] !== who) break;
      n++;
    }
    for (let s = 1; s < 4; s++) {
      const r = row - dr * s, c = col - dc * s;
      if (r < 0 || r >= ROWS || c < 0 || c >= COLS || board[r * COLS + c] !== who) break;
      n++;
    }
    if (n >= 4) return true;
  }
  return false;
}

/** True when dropping `who` into `col` wins at once. */
export function winningDrop(board: Int8Array, col: number, who: 1 | 2): boolean {
  if (!canDrop(board, col)) return false;
  const r = drop(board, col, who);
  const win = winsAt(board, r, col);
  undrop(board, col);
  return win;
}

/**
 * A static evaluation for `who`: every window of four with only one player's discs counts,
 * more the fuller it is. Used by the planning opponent and the aggressive one.
 */
export function evaluate(board: Int8Array, who: 1 | 2): number {
  const other = who === 1 ? 2 : 1;
  let score = 0;
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      for (const [dr, dc] of DIRS) {
        const er = r + dr * 3, ec = c + dc * 3;
        if (er < 0 || er >= ROWS || ec < 0 || ec >= COLS) continue;
        let mine = 0, theirs = 0;
        for (let s = 0; s < 4; s++) {
          const v = board[(r + dr * s) * COLS + c + dc * s];
          if (v === who) mine++;
          else if (v === other) theirs++;
        }
        if (theirs === 0) score += WEIGHT[mine] as number;
        else if (mine === 0) score -= WEIGHT[theirs] as number;
      }
    }
  }
  // The centre column takes part in the most lines.
  for (let r = 0; r < ROWS; r++) {
    const v = board[r * COLS + 3];
    if (v === who) score += 3;
    else if (v === other) score -= 3;
  }
  return score;
}
const WEIGHT = [0, 1, 4, 16, 1000];
