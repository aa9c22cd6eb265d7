/**
 * Built-in Connect Four opponents, weakest to strongest: random, defensive (blocks, keeps to the
 * centre), aggressive (wins when it can, builds its own lines) and minimax (alpha-beta search).
 * Each reads only its own observation (1 own, -1 opponent), as a submitted policy would.
 */
import type { SidePolicy } from '../../core/multiAgent';
import { Rng, type Seed } from '../../core/rng';
import { COLS, ROWS, canDrop, drop, evaluate, legalColumns, undrop, winningDrop, winsAt } from './board';
import type { ConnectFourOpponentName } from '../opponentNames';

export { CONNECT_FOUR_OPPONENTS, type ConnectFourOpponentName } from '../opponentNames';

/** The observation as a board where the side to move is 1 and its opponent 2. */
function boardOf(obs: unknown): Int8Array {
  const src = obs as ArrayLike<number>;
  const b = new Int8Array(ROWS * COLS);
  for (let i = 0; i < ROWS * COLS; i++) b[i] = src[i] === 1 ? 1 : src[i] === -1 ? 2 : 0;
  return b;
}

const CENTRE_ORDER = [3, 2, 4, 1, 5, 0, 6];

function chooser(seed: Seed, choose: (board: Int8Array, rng: Rng) => number): SidePolicy {
  const rng = new Rng(seed);
  return (observations, ctx) => {
    const agent = ctx.ownAgents[0] as string;
    return { [agent]: choose(boardOf(observations[agent]), rng) };
  };
}

/** Columns where dropping now would let the opponent win on top at once. */
function givesAway(board: Int8Array, col: number): boolean {
  const r = drop(board, col, 1);
  const bad = winningDrop(board, col, 2);
  undrop(board, col);
  return r >= 0 && bad;
}

export function connectFourOpponent(name: ConnectFourOpponentName, seed: Seed = 0, depth = 5): SidePolicy {
  switch (name) {
    case 'random':
      return chooser(seed, (b, rng) => rng.choice(legalColumns(b)));
    case 'defensive':
      return chooser(seed, (b, rng) => {
        const legal = legalColumns(b);
        const block = legal.find((c) => winningDrop(b, c, 2));
        if (block !== undefined) return block;
        const safe = legal.filter((c) => !givesAway(b, c));
        const pool = safe.length ? safe : legal;
        // Mostly central, with some variety so it is not a single fixed line.
        return rng.random() < 0.7 ? (CENTRE_ORDER.find((c) => pool.includes(c)) as number) : rng.choice(pool);
      });
    case 'aggressive':
      return chooser(seed, (b, rng) => {
        const legal = legalColumns(b);
        const win = legal.find((c) => winningDrop(b, c, 1));
        if (win !== undefined) return win;
        const block = legal.find((c) => winningDrop(b, c, 2));
        if (block !== undefined) return block;
        let best = -Infinity, picks: number[] = [];
        for (const c of legal) {
          drop(b, c, 1);
          const v = evaluate(b, 1);
          undrop(b, c);
          if (v > best) { best = v; picks = [c]; } else if (v === best) picks.push(c);
        }
        return rng.choice(picks);
      });
    case 'minimax':
      return chooser(seed, (b, rng) => minimaxMove(b, depth, rng));
  }
}

/** Alpha-beta search to `depth` plies for the side to move (1); ties broken at random. */
export function minimaxMove(board: Int8Array, depth: number, rng: Rng): number {
  const legal = CENTRE_ORDER.filter((c) => canDrop(board, c));
  let best = -Infinity, picks: number[] = [];
  for (const c of legal) {
    const r = drop(board, c, 1);
    const v = winsAt(board, r, c) ? 100000 + depth : -search(board, depth - 1, 2, -Infinity, Infinity);
    undrop(board, c);
    if (v > best) { best = v; picks = [c]; } else if (v === best) picks.push(c);
  }
  return picks.length ? rng.choice(picks) : (legal[0] as number);
}

/** Negamax value for `who` to move. */
function search(board: Int8Array, depth: number, who: 1 | 2, alpha: number, beta: number): number {
  const other = who === 1 ? 2 : 1;
  let any = false;
  let best = -Infinity;
  for (const c of CENTRE_ORDER) {
    if (!canDrop(board, c)) continue;
    any = true;
    const r = drop(board, c, who);
    let v: number;
    if (winsAt(board, r, c)) v = 100000 + depth;
    else if (depth <= 0) v = evaluate(board, who);
    else v = -search(board, depth - 1, other, -beta, -alpha);
    undrop(board, c);
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return any ? best : 0;
}
