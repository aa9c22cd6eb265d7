/**
 * CarRacing's track generator, following Gymnasium 1.4: twelve jittered checkpoints on a
 * morphed circle, a heading that turns toward the next checkpoint in fixed steps, one lap cut
 * out between two passes of the start angle, and red/white kerbs on sharp one-sided bends.
 */
import type { Draws } from './draws';

export const SCALE = 6.0;
export const TRACK_RAD = 900 / SCALE;
export const PLAYFIELD = 2000 / SCALE;
export const TRACK_DETAIL_STEP = 21 / SCALE;
export const TRACK_TURN_RATE = 0.31;
export const TRACK_WIDTH = 40 / SCALE;
export const BORDER = 8 / SCALE;
const BORDER_MIN_COUNT = 4;
const CHECKPOINTS = 12;

export type Pt = [number, number];
/** One track point: [alpha (angle around the centre), beta (heading), x, y]. */
export type TrackPoint = [number, number, number, number];

export interface TrackPolygon {
  points: [Pt, Pt, Pt, Pt];
  /** Index of the road tile, or -1 for a kerb. */
  tile: number;
  color: [number, number, number];
}

export interface Track {
  points: TrackPoint[];
  /** Road tiles and kerbs in drawing order (a tile, then its kerb if it has one). */
  polygons: TrackPolygon[];
  startAlpha: number;
}

const at = <T>(xs: readonly T[], i: number): T => xs[i < 0 ? i + xs.length : i] as T;

/** One attempt; null when the lap does not close (Gymnasium retries with fresh draws). */
/** `turnRate`: the most the heading turns per track point (Gymnasium's TRACK_TURN_RATE by default). */
export function createTrack(draws: Draws, roadColor: readonly number[], turnRate = TRACK_TURN_RATE): Track | null {
  const checkpoints: [number, number, number][] = [];
  const startAlpha = (2 * Math.PI * -0.5) / CHECKPOINTS;
  for (let c = 0; c < CHECKPOINTS; c++) {
    const noise = draws.uniform(0, (2 * Math.PI * 1) / CHECKPOINTS);
    let alpha = (2 * Math.PI * c) / CHECKPOINTS + noise;
    let rad = draws.uniform(TRACK_RAD / 3, TRACK_RAD);
    if (c === 0) {
      alpha = 0;
      rad = 1.5 * TRACK_RAD;
    }
    if (c === CHECKPOINTS - 1) {
      alpha = (2 * Math.PI * c) / CHECKPOINTS;
      rad = 1.5 * TRACK_RAD;
    }
    checkpoints.push([alpha, rad * Math.cos(alpha), rad * Math.sin(alpha)]);
  }

  let x = 1.5 * TRACK_RAD;
  let y = 0;
  let beta = 0;
  let destI = 0;
  let laps = 0;
  let track: TrackPoint[] = [];
  let noFreeze = 2500;
  let visitedOtherSide = false;
  for (;;) {
    let alpha = Math.atan2(y, x);
    if (visitedOtherSide && alpha > 0) {
      laps++;
      visitedOtherSide = false;
    }
    if (alpha < 0) {
      visitedOtherSide = true;
      alpha += 2 * Math.PI;
    }
    let destX = 0;
    let destY = 0;
    for (;;) {
      let failed = true;
      for (;;) {
        const [destAlpha, dx, dy] = checkpoints[destI % CHECKPOINTS] as [number, number, number];
        destX = dx;
        destY = dy;
        if (alpha <= destAlpha) {
          failed = false;
          break;
        }
        destI++;
        if (destI % CHECKPOINTS === 0) break;
      }
      if (!failed) break;
      alpha -= 2 * Math.PI;
    }
    const r1x = Math.cos(beta);
    const r1y = Math.sin(beta);
    const p1x = -r1y;
    const p1y = r1x;
    const destDx = destX - x;
    const destDy = destY - y;
    let proj = r1x * destDx + r1y * destDy;
    while (beta - alpha > 1.5 * Math.PI) beta -= 2 * Math.PI;
    while (beta - alpha < -1.5 * Math.PI) beta += 2 * Math.PI;
    const prevBeta = beta;
    proj *= SCALE;
    if (proj > 0.3) beta -= Math.min(turnRate, Math.abs(0.001 * proj));
    if (proj < -0.3) beta += Math.min(turnRate, Math.abs(0.001 * proj));
    x += p1x * TRACK_DETAIL_STEP;
    y += p1y * TRACK_DETAIL_STEP;
    track.push([alpha, prevBeta * 0.5 + beta * 0.5, x, y]);
    if (laps > 4) break;
    noFreeze--;
    if (noFreeze === 0) break;
  }

  let i1 = -1;
  let i2 = -1;
  let i = track.length;
  for (;;) {
    i--;
    if (i === 0) return null;
    const pass = (track[i] as TrackPoint)[0] > startAlpha && (track[i - 1] as TrackPoint)[0] <= startAlpha;
    if (pass && i2 === -1) i2 = i;
    else if (pass && i1 === -1) {
      i1 = i;
      break;
    }
  }
  track = track.slice(i1, i2 - 1);
  const first = track[0] as TrackPoint;
  const last = at(track, -1);
  const glue = Math.sqrt((Math.cos(first[1]) * (first[2] - last[2])) ** 2 + (Math.sin(first[1]) * (first[3] - last[3])) ** 2);
  if (glue > TRACK_DETAIL_STEP) return null;

  const n = track.length;
  const border = new Array<boolean>(n).fill(false);
  for (let k = 0; k < n; k++) {
    let good = true;
    let oneside = 0;
    for (let neg = 0; neg < BORDER_MIN_COUNT; neg++) {
      const b1 = at(track, k - neg)[1];
      const b2 = at(track, k - neg - 1)[1];
      good = good && Math.abs(b1 - b2) > turnRate * 0.2;
      oneside += Math.sign(b1 - b2);
    }
    border[k] = good && Math.abs(oneside) === BORDER_MIN_COUNT;
  }
  for (let k = 0; k < n; k++) {
    for (let neg = 0; neg < BORDER_MIN_COUNT; neg++) {
      const j = k - neg < 0 ? k - neg + n : k - neg;
      border[j] = (border[j] as boolean) || (border[k] as boolean);
    }
  }

  const polygons: TrackPolygon[] = [];
  for (let k = 0; k < n; k++) {
    const [, beta1, x1, y1] = at(track, k);
    const [, beta2, x2, y2] = at(track, k - 1);
    const road1l: Pt = [x1 - TRACK_WIDTH * Math.cos(beta1), y1 - TRACK_WIDTH * Math.sin(beta1)];
    const road1r: Pt = [x1 + TRACK_WIDTH * Math.cos(beta1), y1 + TRACK_WIDTH * Math.sin(beta1)];
    const road2l: Pt = [x2 - TRACK_WIDTH * Math.cos(beta2), y2 - TRACK_WIDTH * Math.sin(beta2)];
    const road2r: Pt = [x2 + TRACK_WIDTH * Math.cos(beta2), y2 + TRACK_WIDTH * Math.sin(beta2)];
    const c = 0.01 * (k % 3) * 255;
    polygons.push({ points: [road1l, road1r, road2r, road2l], tile: k, color: [roadColor[0]! + c, roadColor[1]! + c, roadColor[2]! + c] });
    if (border[k]) {
      const side = Math.sign(beta2 - beta1);
      const b1l: Pt = [x1 + side * TRACK_WIDTH * Math.cos(beta1), y1 + side * TRACK_WIDTH * Math.sin(beta1)];
      const b1r: Pt = [x1 + side * (TRACK_WIDTH + BORDER) * Math.cos(beta1), y1 + side * (TRACK_WIDTH + BORDER) * Math.sin(beta1)];
      const b2l: Pt = [x2 + side * TRACK_WIDTH * Math.cos(beta2), y2 + side * TRACK_WIDTH * Math.sin(beta2)];
      const b2r: Pt = [x2 + side * (TRACK_WIDTH + BORDER) * Math.cos(beta2), y2 + side * (TRACK_WIDTH + BORDER) * Math.sin(beta2)];
      polygons.push({ points: [b1l, b1r, b2r, b2l], tile: -1, color: k % 2 === 0 ? [255, 255, 255] : [255, 0, 0] });
    }
  }
  return { points: track, polygons, startAlpha };
}
