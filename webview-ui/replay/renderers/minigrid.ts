/**
 * MiniGrid scenes from `MiniGridSnapshot` (src/envs/minigrid/worldState.ts): `grid` is
 * Grid.encode() as digits, cell (x,y) at (x*H+y)*3 (type, colour, state); `agent` is
 * [x, y, dir]; `visible` lists the cells the agent sees (x*H+y). Drawn like MiniGrid's own
 * renderer: the agent a red triangle, its field of view highlighted.
 */
import { drawMessage, type SceneRenderer } from './registry';

const OBJECT_NAMES = ['unseen', 'empty', 'wall', 'floor', 'door', 'key', 'ball', 'box', 'goal', 'lava', 'agent'] as const;
const COLOR_NAMES = ['red', 'green', 'blue', 'purple', 'yellow', 'grey'] as const;
const COLORS: Record<(typeof COLOR_NAMES)[number], string> = {
  red: '#ff0000', green: '#00c000', blue: '#2060ff', purple: '#7027c3', yellow: '#e0c000', grey: '#646464',
};
const DIRS = ['right', 'down', 'left', 'up'] as const;
const VIEW = 7;

interface GridSnap {
  width: number;
  height: number;
  cells: (i: number) => [number, number, number];
  agent: [number, number, number];
  visible: Set<number> | null;
  carrying: unknown;
  mission: string;
}

function parse(s: unknown): GridSnap | null {
  if (typeof s !== 'object' || s === null) return null;
  const o = s as Record<string, unknown>;
  const width = o['width'];
  const height = o['height'];
  if (typeof width !== 'number' || typeof height !== 'number' || width < 1 || height < 1) return null;
  const g = o['grid'];
  let cells: GridSnap['cells'];
  if (typeof g === 'string' && g.length >= width * height * 3) cells = (i) => [g.charCodeAt(i * 3) - 48, g.charCodeAt(i * 3 + 1) - 48, g.charCodeAt(i * 3 + 2) - 48];
  else if (Array.isArray(g) && g.length >= width * height * 3) cells = (i) => [Number(g[i * 3]), Number(g[i * 3 + 1]), Number(g[i * 3 + 2])];
  else return null;
  const a = o['agent'] ?? o['agentPos'];
  const dir = typeof o['agentDir'] === 'number' ? o['agentDir'] : undefined;
  if (!Array.isArray(a) || a.length < 2) return null;
  const agent: [number, number, number] = [Number(a[0]), Number(a[1]), Number(a[2] ?? dir ?? 0)];
  const vis = o['visible'];
  return {
    width, height, cells, agent,
    visible: Array.isArray(vis) ? new Set(vis.filter((v): v is number => typeof v === 'number')) : null,
    carrying: o['carrying'] ?? null,
    mission: typeof o['mission'] === 'string' ? o['mission'] : '',
  };
}

/** The 7×7 view square in front of the agent (MiniGrid get_view_exts), when no visibility was recorded. */
function viewSquare(g: GridSnap): Set<number> {
  const [x, y, d] = g.agent;
  const half = Math.floor(VIEW / 2);
  const [tx, ty] = d === 0 ? [x, y - half] : d === 1 ? [x - half, y] : d === 2 ? [x - VIEW + 1, y - half] : [x - half, y - VIEW + 1];
  const out = new Set<number>();
  for (let i = 0; i < VIEW; i++) for (let j = 0; j < VIEW; j++) {
    const cx = tx + i;
    const cy = ty + j;
    if (cx >= 0 && cy >= 0 && cx < g.width && cy < g.height) out.add(cx * g.height + cy);
  }
  return out;
}

function objectName(enc: [number, number, number] | unknown): string {
  if (!Array.isArray(enc)) return 'nothing';
  return `${COLOR_NAMES[Number(enc[1])] ?? ''} ${OBJECT_NAMES[Number(enc[0])] ?? 'object'}`.trim();
}

/**
 * The agent's own 7×7 view as a drawable snapshot: the observation image uses the same (i*7+j)*3
 * layout as Grid.encode(), with the agent at the bottom centre facing up.
 */
function viewSnapshot(o: unknown): { width: number; height: number; grid: unknown[]; agent: [number, number, number]; visible: null; carrying: null; mission: string } | null {
  if (typeof o !== 'object' || o === null) return null;
  const obs = o as { image?: unknown; mission?: unknown };
  const image = obs.image;
  const flat = Array.isArray(image) ? image.flat(2) : image !== null && typeof image === 'object' ? Object.values(image as Record<string, number>) : null;
  if (flat === null || flat.length < VIEW * VIEW * 3) return null;
  return { width: VIEW, height: VIEW, grid: flat, agent: [Math.floor(VIEW / 2), VIEW - 1, 3], visible: null, carrying: null, mission: `${typeof obs.mission === 'string' ? obs.mission : ''} (agent's view)`.trim() };
}

export const miniGridRenderer: SceneRenderer = {
  family: 'minigrid',
  stepsPerSecond: 4,
  aspect: 1,
  observationAspect: 1,
  /** Without a world snapshot, the scene is the agent's own 7×7 view. */
  fromObservation: (o) => viewSnapshot(o),
  drawObservation(sc, o) {
    const g = parse(viewSnapshot(o));
    if (g === null) return false;
    const tile = Math.floor(Math.min(sc.width, sc.height) / VIEW);
    drawGrid(sc.ctx, g, Math.floor((sc.width - tile * VIEW) / 2), Math.floor((sc.height - tile * VIEW) / 2), tile, null);
    return true;
  },
  describe(s) {
    const g = parse(s);
    if (g === null) return 'no grid state';
    return `agent at (${g.agent[0]}, ${g.agent[1]}) facing ${DIRS[g.agent[2]] ?? '?'}, carrying ${g.carrying === null ? 'nothing' : objectName(g.carrying)}${g.mission ? `; mission: ${g.mission}` : ''}`;
  },
  draw(sc, snap) {
    const g = parse(snap);
    if (g === null) return drawMessage(sc, 'No grid state in this step');
    const { ctx, width, height, theme: t } = sc;
    const tile = Math.floor(Math.min(width / g.width, (height - 22) / g.height));
    const ox = Math.floor((width - tile * g.width) / 2);
    const oy = 2;
    drawGrid(ctx, g, ox, oy, tile, g.visible ?? viewSquare(g));
    ctx.fillStyle = t.muted;
    ctx.font = `12px ${t.font}`;
    ctx.textBaseline = 'top';
    const carry = g.carrying === null ? '' : ` · carrying ${objectName(g.carrying)}`;
    ctx.fillText(`${g.mission}${carry}`, ox, oy + g.height * tile + 6);
  },
};

/** The cells, the highlighted field of view (none when null), grid lines and the agent. */
function drawGrid(ctx: CanvasRenderingContext2D, g: GridSnap, ox: number, oy: number, tile: number, visible: Set<number> | null): void {
  ctx.fillStyle = '#000000';
  ctx.fillRect(ox, oy, tile * g.width, tile * g.height);
  for (let x = 0; x < g.width; x++) for (let y = 0; y < g.height; y++) {
    const i = x * g.height + y;
    drawCell(ctx, g.cells(i), ox + x * tile, oy + y * tile, tile);
    if (visible?.has(i) === true) {
      ctx.fillStyle = 'rgba(255,255,255,0.22)';
      ctx.fillRect(ox + x * tile, oy + y * tile, tile, tile);
    }
  }
  ctx.strokeStyle = 'rgba(100,100,100,0.9)';
  ctx.lineWidth = 1;
  for (let x = 0; x <= g.width; x++) { ctx.beginPath(); ctx.moveTo(ox + x * tile + 0.5, oy); ctx.lineTo(ox + x * tile + 0.5, oy + g.height * tile); ctx.stroke(); }
  for (let y = 0; y <= g.height; y++) { ctx.beginPath(); ctx.moveTo(ox, oy + y * tile + 0.5); ctx.lineTo(ox + g.width * tile, oy + y * tile + 0.5); ctx.stroke(); }
  drawAgent(ctx, ox + g.agent[0] * tile, oy + g.agent[1] * tile, tile, g.agent[2]);
}

function drawCell(ctx: CanvasRenderingContext2D, [type, color, state]: [number, number, number], x: number, y: number, s: number): void {
  const c = COLORS[COLOR_NAMES[color] ?? 'grey'] ?? '#646464';
  const name = OBJECT_NAMES[type] ?? 'unseen';
  switch (name) {
    case 'wall':
      ctx.fillStyle = COLORS.grey;
      ctx.fillRect(x, y, s, s);
      break;
    case 'floor':
      ctx.fillStyle = dim(c);
      ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
      break;
    case 'goal':
      ctx.fillStyle = COLORS.green;
      ctx.fillRect(x, y, s, s);
      break;
    case 'lava':
      ctx.fillStyle = '#ff8000';
      ctx.fillRect(x, y, s, s);
      ctx.strokeStyle = '#000000';
      ctx.lineWidth = Math.max(1, s / 20);
      for (let k = 1; k <= 3; k++) {
        ctx.beginPath();
        const yy = y + (k * s) / 4;
        ctx.moveTo(x + s * 0.1, yy);
        ctx.quadraticCurveTo(x + s * 0.3, yy - s * 0.08, x + s * 0.5, yy);
        ctx.quadraticCurveTo(x + s * 0.7, yy + s * 0.08, x + s * 0.9, yy);
        ctx.stroke();
      }
      break;
    case 'door':
      ctx.strokeStyle = c;
      ctx.fillStyle = c;
      ctx.lineWidth = Math.max(1, s / 16);
      if (state === 0) {
        ctx.strokeRect(x + s * 0.88, y + 1, s * 0.1, s - 2);
      } else {
        if (state === 2) ctx.fillRect(x + 1, y + 1, s - 2, s - 2);
        else ctx.strokeRect(x + s * 0.06, y + s * 0.06, s * 0.88, s * 0.88);
        ctx.fillStyle = state === 2 ? '#000000' : c;
        ctx.fillRect(x + s * 0.72, y + s * 0.45, s * 0.1, s * 0.1);
      }
      break;
    case 'key':
      ctx.fillStyle = c;
      ctx.fillRect(x + s * 0.5, y + s * 0.31, s * 0.13, s * 0.5);
      ctx.fillRect(x + s * 0.38, y + s * 0.59, s * 0.12, s * 0.07);
      ctx.fillRect(x + s * 0.38, y + s * 0.72, s * 0.12, s * 0.07);
      ctx.beginPath();
      ctx.arc(x + s * 0.56, y + s * 0.28, s * 0.19, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#000000';
      ctx.beginPath();
      ctx.arc(x + s * 0.56, y + s * 0.28, s * 0.064, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'ball':
      ctx.fillStyle = c;
      ctx.beginPath();
      ctx.arc(x + s / 2, y + s / 2, s * 0.31, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'box':
      ctx.strokeStyle = c;
      ctx.lineWidth = Math.max(1, s / 14);
      ctx.strokeRect(x + s * 0.14, y + s * 0.14, s * 0.72, s * 0.72);
      ctx.beginPath();
      ctx.moveTo(x + s * 0.14, y + s / 2);
      ctx.lineTo(x + s * 0.86, y + s / 2);
      ctx.stroke();
      break;
    default:
      break;
  }
}

function drawAgent(ctx: CanvasRenderingContext2D, x: number, y: number, s: number, dir: number): void {
  ctx.save();
  ctx.translate(x + s / 2, y + s / 2);
  ctx.rotate((dir * Math.PI) / 2);
  ctx.fillStyle = COLORS.red;
  ctx.beginPath();
  ctx.moveTo(s * 0.37, 0);
  ctx.lineTo(-s * 0.31, -s * 0.31);
  ctx.lineTo(-s * 0.31, s * 0.31);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

function dim(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${((n >> 16) & 255) / 2}, ${((n >> 8) & 255) / 2}, ${(n & 255) / 2})`;
}

