/**
 * Driving scenes (the `highway` family: highway, merge, roundabout, intersection, parking) drawn
 * top-down from `DrivingEnv.snapshot()` (src/envs/highway/drivingEnv.ts): lanes with their
 * markings, obstacles, the parking goal spot, vehicles as oriented rectangles with the ego
 * vehicle highlighted and crashed ones in red. The camera follows the ego vehicle over `view`
 * metres, or frames the whole scene when `view` is null (parking). Lane shapes come only in the
 * first snapshot of an episode; later ones name the same `road`, so shapes are kept by that key.
 */
import { drawMessage, numbers, type SceneContext, type SceneRenderer } from './registry';

type LineType = 0 | 1 | 2 | 3;
type LaneShape =
  | { t: 's'; p: [number, number, number, number]; w: number; lt: [LineType, LineType] }
  | { t: 'n'; p: [number, number, number, number]; amp: number; pul: number; ph: number; w: number; lt: [LineType, LineType] }
  | { t: 'c'; c: [number, number]; r: number; a: [number, number]; cw: boolean; w: number; lt: [LineType, LineType] };

interface Box {
  x: number;
  y: number;
  h: number;
  l: number;
  w: number;
}

interface Car extends Box {
  v: number;
  c: boolean;
}

interface DrivingSnap {
  ego: number;
  vehicles: Car[];
  view: number | null;
  road: string | null;
  lanes: LaneShape[] | null;
  obstacles: Box[] | null;
  goal: Box | null;
  time: number | null;
}

/** Road layouts seen so far, by the key every snapshot carries. */
const roads = new Map<string, { lanes: LaneShape[]; obstacles: Box[] }>();

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function box(o: unknown): Box | null {
  if (typeof o !== 'object' || o === null) return null;
  const r = o as Record<string, unknown>;
  return isNum(r['x']) && isNum(r['y']) && isNum(r['h']) && isNum(r['l']) && isNum(r['w']) ? { x: r['x'], y: r['y'], h: r['h'], l: r['l'], w: r['w'] } : null;
}

function laneShape(o: unknown): LaneShape | null {
  if (typeof o !== 'object' || o === null) return null;
  const r = o as Record<string, unknown>;
  const nums = (v: unknown, n: number): boolean => Array.isArray(v) && v.length === n && v.every(isNum);
  if (!isNum(r['w']) || !Array.isArray(r['lt']) || r['lt'].length !== 2) return null;
  if ((r['t'] === 's' || r['t'] === 'n') && nums(r['p'], 4)) {
    if (r['t'] === 's') return r as unknown as LaneShape;
    return isNum(r['amp']) && isNum(r['pul']) && isNum(r['ph']) ? (r as unknown as LaneShape) : null;
  }
  if (r['t'] === 'c' && nums(r['c'], 2) && isNum(r['r']) && nums(r['a'], 2)) return r as unknown as LaneShape;
  return null;
}

export function parseDrivingSnapshot(s: unknown): DrivingSnap | null {
  if (typeof s !== 'object' || s === null) return null;
  const o = s as Record<string, unknown>;
  if (!Array.isArray(o['vehicles']) || !isNum(o['ego'])) return null;
  const vehicles: Car[] = [];
  for (const v of o['vehicles']) {
    const b = box(v);
    if (!b) return null;
    const r = v as Record<string, unknown>;
    vehicles.push({ ...b, v: isNum(r['v']) ? r['v'] : 0, c: r['c'] === true });
  }
  const list = <T>(v: unknown, f: (x: unknown) => T | null): T[] | null => {
    if (!Array.isArray(v)) return null;
    const out = v.map(f);
    return out.every((x) => x !== null) ? (out as T[]) : null;
  };
  return {
    ego: o['ego'],
    vehicles,
    view: isNum(o['view']) && o['view'] > 0 ? o['view'] : null,
    road: typeof o['road'] === 'string' ? o['road'] : null,
    lanes: list(o['lanes'], laneShape),
    obstacles: list(o['obstacles'], box),
    goal: box(o['goal']),
    time: isNum(o['time']) ? o['time'] : null,
  };
}

/** A point of a lane at longitudinal s and lateral offset lat (HighwayEnv's lane geometry). */
export function lanePoint(l: LaneShape, s: number, lat: number): [number, number] {
  if (l.t === 'c') {
    const d = l.cw ? 1 : -1;
    const phi = (d * s) / l.r + l.a[0];
    const rr = l.r - lat * d;
    return [l.c[0] + rr * Math.cos(phi), l.c[1] + rr * Math.sin(phi)];
  }
  const [x0, y0, x1, y1] = l.p;
  const len = Math.hypot(x1 - x0, y1 - y0);
  const dx = (x1 - x0) / len;
  const dy = (y1 - y0) / len;
  const off = l.t === 'n' ? lat + l.amp * Math.sin(l.pul * s + l.ph) : lat;
  return [x0 + s * dx - off * dy, y0 + s * dy + off * dx];
}

export function laneLength(l: LaneShape): number {
  if (l.t === 'c') return l.r * (l.a[1] - l.a[0]) * (l.cw ? 1 : -1);
  return Math.hypot(l.p[2] - l.p[0], l.p[3] - l.p[1]);
}

interface Camera {
  cx: number;
  cy: number;
  scale: number;
}

function camera(sc: SceneContext, snap: DrivingSnap, road: { lanes: LaneShape[]; obstacles: Box[] } | undefined): Camera {
  const ego = snap.vehicles[snap.ego];
  if (snap.view !== null && ego) return { cx: ego.x, cy: ego.y, scale: sc.width / snap.view };
  // Frame everything: lane ends, obstacles, vehicles and the goal.
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (x: number, y: number): void => {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  };
  for (const l of road?.lanes ?? []) {
    const len = laneLength(l);
    for (const s of [0, len / 2, len]) add(...lanePoint(l, s, 0));
  }
  for (const b of [...(road?.obstacles ?? []), ...snap.vehicles, ...(snap.goal ? [snap.goal] : [])]) {
    const c = Math.cos(b.h);
    const s = Math.sin(b.h);
    for (const [u, v] of [
      [-b.l / 2, -b.w / 2],
      [b.l / 2, b.w / 2],
      [-b.l / 2, b.w / 2],
      [b.l / 2, -b.w / 2],
    ] as const) add(b.x + c * u - s * v, b.y + s * u + c * v);
  }
  if (!Number.isFinite(minX)) return { cx: 0, cy: 0, scale: 5 };
  const scale = 0.94 * Math.min(sc.width / Math.max(1, maxX - minX), sc.height / Math.max(1, maxY - minY));
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, scale };
}

function drawLanes(sc: SceneContext, cam: Camera, lanes: LaneShape[]): void {
  const { ctx, width, height, theme } = sc;
  const sx = (x: number): number => width / 2 + (x - cam.cx) * cam.scale;
  const sy = (y: number): number => height / 2 + (y - cam.cy) * cam.scale;
  const path = (l: LaneShape, lat: number): void => {
    const len = laneLength(l);
    const n = l.t === 's' ? 1 : Math.max(8, Math.ceil(len / 2));
    ctx.beginPath();
    for (let i = 0; i <= n; i++) {
      const [x, y] = lanePoint(l, (len * i) / n, lat);
      if (i === 0) ctx.moveTo(sx(x), sy(y));
      else ctx.lineTo(sx(x), sy(y));
    }
  };
  // Asphalt first, then every marking on top.
  ctx.strokeStyle = theme.grid;
  ctx.lineCap = 'butt';
  for (const l of lanes) {
    ctx.lineWidth = l.w * cam.scale;
    path(l, 0);
    ctx.stroke();
  }
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = Math.max(1, 0.15 * cam.scale);
  for (const l of lanes) {
    for (const side of [0, 1] as const) {
      const type = l.lt[side];
      if (type === 0) continue;
      ctx.setLineDash(type === 1 ? [3 * cam.scale, 3 * cam.scale] : []);
      path(l, (side - 0.5) * l.w);
      ctx.stroke();
    }
  }
  ctx.setLineDash([]);
}

function drawBox(sc: SceneContext, cam: Camera, b: Box, fill: string, outline: string | null, nose: boolean): void {
  const { ctx, width, height } = sc;
  ctx.save();
  ctx.translate(width / 2 + (b.x - cam.cx) * cam.scale, height / 2 + (b.y - cam.cy) * cam.scale);
  ctx.rotate(b.h);
  const l = b.l * cam.scale;
  const w = b.w * cam.scale;
  ctx.fillStyle = fill;
  ctx.fillRect(-l / 2, -w / 2, l, w);
  if (outline) {
    ctx.strokeStyle = outline;
    ctx.lineWidth = Math.max(1.5, 0.2 * cam.scale);
    ctx.strokeRect(-l / 2, -w / 2, l, w);
  }
  if (nose) {
    // A darker band at the front shows which way the vehicle faces.
    ctx.fillStyle = 'rgba(0,0,0,0.35)';
    ctx.fillRect(l / 2 - Math.max(2, l * 0.18), -w / 2, Math.max(2, l * 0.18), w);
  }
  ctx.restore();
}

export const highwayRenderer: SceneRenderer = {
  family: 'highway',
  stepsPerSecond: 1,
  aspect: 2,
  describe(s) {
    const snap = parseDrivingSnapshot(s);
    const ego = snap?.vehicles[snap.ego];
    if (!snap || !ego) return 'no driving scene';
    const crashed = snap.vehicles.filter((v) => v.c).length;
    return `ego at (${ego.x.toFixed(1)}, ${ego.y.toFixed(1)}) m, ${ego.v.toFixed(1)} m/s${ego.c ? ', crashed' : ''}; ${snap.vehicles.length - 1} other vehicles${crashed > (ego.c ? 1 : 0) ? `, ${crashed - (ego.c ? 1 : 0)} crashed` : ''}${snap.goal ? `; goal at (${snap.goal.x.toFixed(1)}, ${snap.goal.y.toFixed(1)}) m` : ''}`;
  },
  draw(sc, s) {
    const snap = parseDrivingSnapshot(s);
    if (!snap) return drawMessage(sc, 'No driving scene in this step');
    if (snap.road && snap.lanes) roads.set(snap.road, { lanes: snap.lanes, obstacles: snap.obstacles ?? [] });
    const road = snap.lanes ? { lanes: snap.lanes, obstacles: snap.obstacles ?? [] } : snap.road ? roads.get(snap.road) : undefined;
    const cam = camera(sc, snap, road);
    const t = sc.theme;
    if (road) drawLanes(sc, cam, road.lanes);
    for (const o of road?.obstacles ?? []) drawBox(sc, cam, o, t.muted, null, false);
    if (snap.goal) drawBox(sc, cam, snap.goal, 'rgba(56,138,52,0.25)', t.green, false);
    snap.vehicles.forEach((v, i) => {
      if (i === snap.ego) return;
      drawBox(sc, cam, v, v.c ? t.red : t.blue, null, true);
    });
    const ego = snap.vehicles[snap.ego];
    if (ego) drawBox(sc, cam, ego, ego.c ? t.red : t.yellow, t.foreground, true);
  },
};

/** The car and the goal from a parking observation ([x/100, y/100, vx/5, vy/5, cos h, sin h] each). */
function parkingFromObservation(o: unknown): unknown {
  if (typeof o !== 'object' || o === null) return null;
  const r = o as Record<string, unknown>;
  const me = numbers(r['observation'], 6);
  const goal = numbers(r['desired_goal'], 6);
  if (!me || !goal) return null;
  const pose = (v: number[], l: number, w: number): Box => ({ x: (v[0] as number) * 100, y: (v[1] as number) * 100, h: Math.atan2(v[5] as number, v[4] as number), l, w });
  return { ego: 0, vehicles: [{ ...pose(me, 5, 2), v: Math.hypot((me[2] as number) * 5, (me[3] as number) * 5), c: false }], view: null, goal: pose(goal, 8, 4) };
}

/** Parking plays at its decision rate (5 per second) and can be drawn from its observations. */
export const parkingRenderer: SceneRenderer = { ...highwayRenderer, family: 'highway/parking', stepsPerSecond: 5, aspect: 1.6, fromObservation: parkingFromObservation };
