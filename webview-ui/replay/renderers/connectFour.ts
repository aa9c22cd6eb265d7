/**
 * Connect Four games (`ConnectFour-v0`) drawn from the game's snapshots
 * (`ConnectFourEnv.snapshot()`: row 0 at the top, 1 red, 2 yellow): the board, each disc numbered
 * in the order it was played (from the side's earlier frames, linked by `prepare`), the last move
 * ringed, and the winning line drawn through the four discs once the game is won.
 */
import { drawMessage, type SceneContext, type SceneFrame, type SceneRenderer } from './registry';

export interface ConnectFourSnapshot {
  rows: number;
  cols: number;
  /** rows × cols, row 0 at the top: 0 empty, 1 red, 2 yellow. */
  board: number[];
  toMove: string | null;
  winner: string | null;
  lastMove: number | null;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export function parseConnectFourSnapshot(s: unknown): ConnectFourSnapshot | null {
  if (typeof s !== 'object' || s === null) return null;
  const o = s as Record<string, unknown>;
  const rows = o['rows'], cols = o['cols'], board = o['board'];
  if (!isInt(rows) || !isInt(cols) || rows < 4 || cols < 4 || rows > 20 || cols > 20 || !Array.isArray(board) || board.length !== rows * cols) return null;
  if (!board.every((v) => v === 0 || v === 1 || v === 2)) return null;
  return {
    rows, cols, board: board as number[],
    toMove: typeof o['toMove'] === 'string' ? o['toMove'] : null,
    winner: typeof o['winner'] === 'string' ? o['winner'] : null,
    lastMove: isInt(o['lastMove']) ? o['lastMove'] : null,
  };
}

/** The four (or more) cells of `player` in a line, as [row, col], or null. */
export function winningLine(s: ConnectFourSnapshot, player: 1 | 2): [number, number][] | null {
  const at = (r: number, c: number): number => (r >= 0 && r < s.rows && c >= 0 && c < s.cols ? (s.board[r * s.cols + c] as number) : 0);
  for (let r = 0; r < s.rows; r++) {
    for (let c = 0; c < s.cols; c++) {
      if (at(r, c) !== player) continue;
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
        // Only from the start of a run, so the whole line comes back once.
        if (at(r - dr, c - dc) === player) continue;
        const cells: [number, number][] = [];
        for (let k = 0; at(r + k * dr, c + k * dc) === player; k++) cells.push([r + k * dr, c + k * dc]);
        if (cells.length >= 4) return cells;
      }
    }
  }
  return null;
}

/** Move number (1-based) of every occupied cell, from the frames up to `frame`; 0 where unknown. */
export function moveNumbers(history: readonly (ConnectFourSnapshot | null)[], frame: number): number[] {
  const first = history.find((h) => h !== null);
  if (!first) return [];
  const order = new Array<number>(first.rows * first.cols).fill(0);
  let move = 0;
  let prev: number[] | null = null;
  for (let f = 0; f <= frame && f < history.length; f++) {
    const h = history[f];
    if (!h) continue;
    const added: number[] = [];
    // Discs already on the board in the first frame were there before the recording: unnumbered.
    if (prev !== null) for (let i = 0; i < h.board.length; i++) if (h.board[i] !== 0 && prev[i] === 0) added.push(i);
    for (const i of added) order[i] = ++move;
    prev = h.board;
  }
  return order;
}

/** Where the board sits: a band on top for the status line, then rows × cols cells. */
export function connectFourLayout(width: number, height: number, rows: number, cols: number): { x0: number; y0: number; cell: number; band: number } {
  const band = 26;
  const cell = Math.max(4, Math.min((width - 16) / cols, (height - band - 22) / rows));
  return { x0: (width - cell * cols) / 2, y0: band + 4, cell, band };
}

const historyOf = new WeakMap<object, (ConnectFourSnapshot | null)[]>();

function discColor(sc: SceneContext, v: number): string {
  return v === 1 ? sc.theme.red : sc.theme.yellow;
}

function status(s: ConnectFourSnapshot, moves: number): string {
  if (s.winner === 'draw') return `Draw after ${moves} moves`;
  if (s.winner !== null) {
    const line = winningLine(s, s.winner === 'red' ? 1 : 2);
    return line ? `${cap(s.winner)} wins with four in a row` : `${cap(s.winner)} wins: ${s.winner === 'red' ? 'yellow' : 'red'} played an illegal move`;
  }
  return `${cap(s.toMove ?? '?')} to move`;
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

export function drawConnectFour(sc: SceneContext, s: ConnectFourSnapshot, order: readonly number[]): void {
  const { ctx, width, height, theme: t } = sc;
  const L = connectFourLayout(width, height, s.rows, s.cols);
  ctx.fillStyle = t.blue;
  ctx.globalAlpha = t.kind.startsWith('high-contrast') ? 0.45 : 0.3;
  ctx.fillRect(L.x0, L.y0, L.cell * s.cols, L.cell * s.rows);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = t.blue;
  ctx.lineWidth = 2;
  ctx.strokeRect(L.x0, L.y0, L.cell * s.cols, L.cell * s.rows);
  const centre = (r: number, c: number): [number, number] => [L.x0 + (c + 0.5) * L.cell, L.y0 + (r + 0.5) * L.cell];
  const rad = L.cell * 0.4;
  const last = s.lastMove;
  let lastRow = -1;
  if (last !== null) for (let r = 0; r < s.rows; r++) if (s.board[r * s.cols + last] !== 0) { lastRow = r; break; }
  const line = s.winner === 'red' || s.winner === 'yellow' ? winningLine(s, s.winner === 'red' ? 1 : 2) : null;
  const inLine = new Set((line ?? []).map(([r, c]) => r * s.cols + c));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let r = 0; r < s.rows; r++) {
    for (let c = 0; c < s.cols; c++) {
      const v = s.board[r * s.cols + c] as number;
      const [x, y] = centre(r, c);
      ctx.beginPath();
      ctx.arc(x, y, rad, 0, Math.PI * 2);
      ctx.fillStyle = v === 0 ? t.background : discColor(sc, v);
      ctx.fill();
      ctx.strokeStyle = t.kind.startsWith('high-contrast') ? t.foreground : t.border;
      ctx.lineWidth = 1;
      ctx.stroke();
      if (r === lastRow && c === last) {
        ctx.strokeStyle = t.foreground;
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.arc(x, y, rad + 3, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
  }
  if (line) {
    // Under the move numbers, so the order stays readable along the winning line.
    const a = centre(...(line[0] as [number, number]));
    const b = centre(...(line[line.length - 1] as [number, number]));
    ctx.strokeStyle = t.foreground;
    ctx.globalAlpha = 0.45;
    ctx.lineCap = 'round';
    ctx.lineWidth = Math.max(6, L.cell * 0.3);
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]);
    ctx.lineTo(b[0], b[1]);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.lineCap = 'butt';
    ctx.lineWidth = 3;
    for (const i of inLine) {
      const [x, y] = centre(Math.floor(i / s.cols), i % s.cols);
      ctx.beginPath();
      ctx.arc(x, y, rad, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
  ctx.font = `600 ${Math.max(9, Math.round(L.cell * 0.3))}px ${t.font}`;
  for (let i = 0; i < s.board.length; i++) {
    const n = order[i] ?? 0;
    if (s.board[i] === 0 || n === 0) continue;
    const [x, y] = centre(Math.floor(i / s.cols), i % s.cols);
    // Discs are red or yellow in every theme: black numbers read on both.
    ctx.fillStyle = '#000000';
    ctx.fillText(String(n), x, y + 1);
  }
  // Column numbers under the board: the action a policy returns.
  ctx.fillStyle = t.muted;
  ctx.font = `11px ${t.font}`;
  for (let c = 0; c < s.cols; c++) ctx.fillText(String(c), L.x0 + (c + 0.5) * L.cell, L.y0 + s.rows * L.cell + 10);
  ctx.font = `600 14px ${t.font}`;
  ctx.fillStyle = t.foreground;
  ctx.fillText(status(s, s.board.filter((v) => v !== 0).length), width / 2, L.band / 2 + 2);
  ctx.textAlign = 'start';
}

export function describeConnectFour(s: ConnectFourSnapshot): string {
  const discs = s.board.filter((v) => v !== 0).length;
  const line = s.winner === 'red' || s.winner === 'yellow' ? winningLine(s, s.winner === 'red' ? 1 : 2) : null;
  const parts = [status(s, discs), `${discs} discs`];
  if (s.lastMove !== null) parts.push(`last move in column ${s.lastMove}`);
  if (line) parts.push(`winning line ${line.map(([r, c]) => `(${r},${c})`).join(' ')}`);
  return parts.join('; ');
}

export const connectFourRenderer: SceneRenderer = {
  family: 'arena/connect-four',
  stepsPerSecond: 2,
  aspect: 7 / 6.6,
  prepare(snapshots) {
    const parsed = snapshots.map(parseConnectFourSnapshot);
    for (const s of snapshots) if (typeof s === 'object' && s !== null) historyOf.set(s, parsed);
  },
  describe(snapshot) {
    const s = parseConnectFourSnapshot(snapshot);
    return s === null ? 'no Connect Four board in this step' : describeConnectFour(s);
  },
  draw(sc: SceneContext, snapshot: unknown, frame: SceneFrame) {
    const s = parseConnectFourSnapshot(snapshot);
    if (s === null) return drawMessage(sc, 'No Connect Four board in this step');
    const history = typeof snapshot === 'object' && snapshot !== null ? historyOf.get(snapshot) : undefined;
    drawConnectFour(sc, s, history ? moveNumbers(history, frame.index) : []);
  },
};
