/**
 * CarRacing's 96×96×3 observation, drawn the way Gymnasium draws it with pygame: the scene on
 * a 1000×800 canvas (field, grass squares, road tiles and kerbs, car and wheel stripes) from a
 * camera that follows and turns with the car, flipped vertically, the indicator bar at the
 * bottom, then pygame's `smoothscale` area filter down to 96×96. Polygons are filled with
 * SDL_gfx's scanline rule on integer vertices. Not drawn: the anti-aliased polygon outlines and
 * the score text in the bottom-left corner, hence the per-pixel tolerance the tests state.
 * Pure arithmetic on the state, so the replay can redraw a frame without the physics.
 */
import { CAR_SIZE, HULL_POLYS, WHEEL_R, WHEEL_W } from './carRacing';
import { PLAYFIELD, SCALE, type Track } from './carTrack';

const FULL_W = 1000;
const FULL_H = 800;
/**
 * Gymnasium draws on 1000×800; we draw the same scene at 1/CANVAS_DIVISOR of that and let the
 * area filter shrink it from there. Each observed pixel still averages ~50 canvas pixels, and
 * the golden frames stay within the stated tolerance, at a quarter of the cost.
 */
export const CANVAS_DIVISOR = 2;
const WINDOW_W = FULL_W / CANVAS_DIVISOR;
const WINDOW_H = FULL_H / CANVAS_DIVISOR;
export const STATE_W = 96;
export const STATE_H = 96;
const ZOOM = 2.7;
const GRASS_DIM = PLAYFIELD / 20.0;
const MAX_SHAPE_DIM = Math.max(GRASS_DIM, 40 / SCALE, 21 / SCALE) * Math.sqrt(2) * ZOOM * SCALE;

export interface CarFrameState {
  t: number;
  hull: { x: number; y: number; angle: number; vx: number; vy: number; w: number };
  wheels: { x: number; y: number; angle: number; omega: number; phase: number; jointAngle: number }[];
  /** Current colour of every track polygon (touched tiles revert to the road colour). */
  polygonColors: readonly (readonly number[])[];
}

export interface FrameColors {
  road: readonly number[];
  bg: readonly number[];
  grass: readonly number[];
}

/** Gymnasium's grass: every other square of a 40×40 grid, in its drawing order. */
const GRASS_SQUARES: number[][][] = [];
for (let gx = -20; gx < 20; gx += 2) {
  for (let gy = -20; gy < 20; gy += 2) {
    GRASS_SQUARES.push([
      [GRASS_DIM * gx + GRASS_DIM, GRASS_DIM * gy],
      [GRASS_DIM * gx, GRASS_DIM * gy],
      [GRASS_DIM * gx, GRASS_DIM * gy + GRASS_DIM],
      [GRASS_DIM * gx + GRASS_DIM, GRASS_DIM * gy + GRASS_DIM],
    ]);
  }
}

// One word per pixel (R in the low byte) so a run of one colour is a single native fill.
const canvasWords = new Uint32Array(WINDOW_W * WINDOW_H);
const rowTmp = new Uint32Array(STATE_W * WINDOW_H * 3);
const xsBuf = new Float64Array(16);
const ysBuf = new Float64Array(16);
const ints: number[] = [];

/** Fills `out` (96·96·3, row-major RGB) with the frame for `state`. */
export function renderCarFrame(out: Uint8Array, track: Track, colors: FrameColors, state: CarFrameState): void {
  canvasWords.fill(0);
  const angle = -state.hull.angle;
  const ca = Math.cos(angle);
  const sa = Math.sin(angle);
  const zoom = 0.1 * SCALE * Math.max(1 - state.t, 0) + ZOOM * SCALE * Math.min(state.t, 1);
  const scrollX = -state.hull.x * zoom;
  const scrollY = -state.hull.y * zoom;
  const tx = FULL_W / 2 + (scrollX * ca - scrollY * sa);
  const ty = FULL_H / 4 + (scrollX * sa + scrollY * ca);

  /** Transforms world points into the canvas and fills them; `clip` skips polygons far off screen. */
  const drawWorld = (pts: readonly (readonly number[])[], color: readonly number[], clip: boolean): void => {
    const n = pts.length;
    let visible = !clip;
    for (let i = 0; i < n; i++) {
      const p = pts[i] as readonly number[];
      const x = (p[0] as number) * ca - (p[1] as number) * sa;
      const y = (p[0] as number) * sa + (p[1] as number) * ca;
      const cx = x * zoom + tx;
      const cy = y * zoom + ty;
      xsBuf[i] = cx / CANVAS_DIVISOR;
      ysBuf[i] = cy / CANVAS_DIVISOR;
      if (!visible && cx >= -MAX_SHAPE_DIM && cx <= FULL_W + MAX_SHAPE_DIM && cy >= -MAX_SHAPE_DIM && cy <= FULL_H + MAX_SHAPE_DIM) visible = true;
    }
    if (visible) fillPolygon(n, color);
  };

  const b = PLAYFIELD;
  drawWorld([[b, b], [b, -b], [-b, -b], [-b, b]], colors.bg, false);
  const grassColor = colors.grass.map(Math.trunc);
  for (const square of GRASS_SQUARES) drawWorld(square, grassColor, true);
  track.polygons.forEach((poly, i) => drawWorld(poly.points, state.polygonColors[i] ?? poly.color, true));

  // The car: wheels first, then the hull (Gymnasium's draw list order).
  const bodyPoints = (pose: { x: number; y: number; angle: number }, local: readonly (readonly number[])[]): number[][] => {
    const c = Math.cos(pose.angle);
    const s = Math.sin(pose.angle);
    return local.map(([lx, ly]) => [pose.x + c * (lx as number) - s * (ly as number), pose.y + s * (lx as number) + c * (ly as number)]);
  };
  const ws = WHEEL_W * CAR_SIZE;
  const wr = WHEEL_R * CAR_SIZE;
  for (const w of state.wheels) {
    drawWorld(bodyPoints(w, [[-ws, -wr], [ws, -wr], [ws, wr], [-ws, wr]]), [0, 0, 0], false);
    const a1 = w.phase;
    const a2 = w.phase + 1.2;
    const s1 = Math.sin(a1);
    const s2 = Math.sin(a2);
    let c1 = Math.cos(a1);
    let c2 = Math.cos(a2);
    if (s1 > 0 && s2 > 0) continue;
    if (s1 > 0) c1 = Math.sign(c1);
    if (s2 > 0) c2 = Math.sign(c2);
    drawWorld(bodyPoints(w, [[-ws, wr * c1], [ws, wr * c1], [ws, wr * c2], [-ws, wr * c2]]), [77, 77, 77], false);
  }
  for (const poly of HULL_POLYS) drawWorld(bodyPoints(state.hull, poly.map(([x, y]) => [Math.fround(x * CAR_SIZE), Math.fround(y * CAR_SIZE)])), [204, 0, 0], false);

  drawIndicators(state);
  smoothscale(out);
}

/** Writes a horizontal run in canvas coordinates after the vertical flip pygame applies. */
function hline(x0: number, x1: number, y: number, color: readonly number[]): void {
  if (y < 0 || y >= WINDOW_H) return;
  const a = Math.max(0, x0);
  const b = Math.min(WINDOW_W - 1, x1);
  if (a > b) return;
  const row = (WINDOW_H - 1 - y) * WINDOW_W;
  const word = ((color[0] as number) | ((color[1] as number) << 8) | ((color[2] as number) << 16)) >>> 0;
  canvasWords.fill(word, row + a, row + b + 1);
}

/** SDL_gfx's filledPolygon on integer vertices (16.16 fixed-point edge crossings). */
function fillPolygon(n: number, color: readonly number[]): void {
  let miny = Infinity;
  let maxy = -Infinity;
  for (let i = 0; i < n; i++) {
    xsBuf[i] = Math.trunc(xsBuf[i] as number);
    ysBuf[i] = Math.trunc(ysBuf[i] as number);
    miny = Math.min(miny, ysBuf[i] as number);
    maxy = Math.max(maxy, ysBuf[i] as number);
  }
  const yStart = Math.max(miny, 0);
  const yEnd = Math.min(maxy, WINDOW_H - 1);
  for (let y = yStart; y <= yEnd; y++) {
    ints.length = 0;
    for (let i = 0; i < n; i++) {
      const i1 = i === 0 ? n - 1 : i - 1;
      let y1 = ysBuf[i1] as number;
      let y2 = ysBuf[i] as number;
      let x1: number;
      let x2: number;
      if (y1 < y2) {
        x1 = xsBuf[i1] as number;
        x2 = xsBuf[i] as number;
      } else if (y1 > y2) {
        y2 = ysBuf[i1] as number;
        y1 = ysBuf[i] as number;
        x2 = xsBuf[i1] as number;
        x1 = xsBuf[i] as number;
      } else continue;
      if ((y >= y1 && y < y2) || (y === maxy && y > y1 && y <= y2)) {
        ints.push(Math.trunc((65536 * (y - y1)) / (y2 - y1)) * (x2 - x1) + 65536 * x1);
      }
    }
    ints.sort((p, q) => p - q);
    for (let i = 0; i + 1 < ints.length; i += 2) {
      let xa = (ints[i] as number) + 1;
      xa = Math.floor(xa / 65536) + (xa & 32768 ? 1 : 0);
      let xb = (ints[i + 1] as number) - 1;
      xb = Math.floor(xb / 65536) + (xb & 32768 ? 1 : 0);
      hline(xa, xb, y, color);
    }
  }
}

/** Axis-aligned rectangle in Gymnasium's final (already flipped) 1000×800 coordinates, edges included. */
function rect(fx0: number, fy0: number, fx1: number, fy1: number, color: readonly number[]): void {
  const [x0, y0, x1, y1] = [fx0 / CANVAS_DIVISOR, fy0 / CANVAS_DIVISOR, fx1 / CANVAS_DIVISOR, fy1 / CANVAS_DIVISOR];
  const ya = Math.trunc(Math.min(y0, y1));
  const yb = Math.trunc(Math.max(y0, y1));
  for (let y = Math.max(0, ya); y <= Math.min(WINDOW_H - 1, yb); y++) hline(Math.trunc(Math.min(x0, x1)), Math.trunc(Math.max(x0, x1)), WINDOW_H - 1 - y, color);
}

function drawIndicators(state: CarFrameState): void {
  const W = FULL_W;
  const H = FULL_H;
  const s = W / 40.0;
  const h = H / 40.0;
  rect(0, H - 5 * h, W, H, [0, 0, 0]);
  const vertical = (place: number, val: number, color: readonly number[]): void => rect(place * s, H - (h + h * val), (place + 1) * s, H - h, color);
  const horizontal = (place: number, val: number, color: readonly number[]): void => rect(place * s, H - 4 * h, (place + val) * s, H - 2 * h, color);
  const speed = Math.sqrt(state.hull.vx * state.hull.vx + state.hull.vy * state.hull.vy);
  const w = state.wheels;
  if (Math.abs(speed) > 1e-4) vertical(5, 0.02 * speed, [255, 255, 255]);
  const omegaColors = [[0, 0, 255], [0, 0, 255], [51, 0, 255], [51, 0, 255]];
  for (let k = 0; k < 4; k++) if (Math.abs(w[k]!.omega) > 1e-4) vertical(7 + k, 0.01 * w[k]!.omega, omegaColors[k]!);
  if (Math.abs(w[0]!.jointAngle) > 1e-4) horizontal(20, -10.0 * w[0]!.jointAngle, [0, 255, 0]);
  if (Math.abs(state.hull.w) > 1e-4) horizontal(30, -0.8 * state.hull.w, [255, 0, 0]);
}

/** pygame's smoothscale shrink: an exact area average in 16.16 fixed point, first along x, then y. */
function smoothscale(out: Uint8Array): void {
  const xspace = Math.trunc((0x10000 * WINDOW_W) / STATE_W);
  const xrecip = Math.trunc(0x100000000 / xspace);
  for (let y = 0; y < WINDOW_H; y++) {
    let src = y * WINDOW_W;
    let dst = y * STATE_W * 3;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let counter = xspace;
    for (let x = 0; x < WINDOW_W; x++, src++) {
      const word = canvasWords[src] as number;
      const p0 = word & 0xff;
      const p1 = (word >>> 8) & 0xff;
      const p2 = (word >>> 16) & 0xff;
      if (counter > 0x10000) {
        a0 += p0;
        a1 += p1;
        a2 += p2;
        counter -= 0x10000;
      } else if (dst < (y + 1) * STATE_W * 3) {
        const frac = 0x10000 - counter;
        rowTmp[dst++] = ((a0 + ((p0 * counter) >>> 16)) * xrecip) >>> 16;
        rowTmp[dst++] = ((a1 + ((p1 * counter) >>> 16)) * xrecip) >>> 16;
        rowTmp[dst++] = ((a2 + ((p2 * counter) >>> 16)) * xrecip) >>> 16;
        a0 = (p0 * frac) >>> 16;
        a1 = (p1 * frac) >>> 16;
        a2 = (p2 * frac) >>> 16;
        counter = xspace - frac;
      }
    }
  }
  const yspace = Math.trunc((0x10000 * WINDOW_H) / STATE_H);
  const yrecip = Math.trunc(0x100000000 / yspace);
  const rowLen = STATE_W * 3;
  const acc = new Uint32Array(rowLen);
  let counter = yspace;
  let dstRow = 0;
  for (let y = 0; y < WINDOW_H; y++) {
    const src = y * rowLen;
    if (counter > 0x10000) {
      for (let i = 0; i < rowLen; i++) acc[i]! += rowTmp[src + i] as number;
      counter -= 0x10000;
    } else if (dstRow < STATE_H) {
      const frac = 0x10000 - counter;
      const dst = dstRow * rowLen;
      for (let i = 0; i < rowLen; i++) {
        const p = rowTmp[src + i] as number;
        out[dst + i] = mulHi((acc[i] as number) + mulHi(p, counter), yrecip);
        acc[i] = mulHi(p, frac);
      }
      dstRow++;
      counter = yspace - frac;
    }
  }
}

/** (a·b) >> 16; every product here stays below 2^31 (a byte sum of ≤ 11 pixels times a 16-bit weight). */
function mulHi(a: number, b: number): number {
  return (a * b) >>> 16;
}
