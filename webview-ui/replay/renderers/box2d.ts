/**
 * Box2D scenes: LunarLander (moon, pad flags, lander and legs, engine flames), BipedalWalker
 * (terrain window, obstacles, walker, lidar rays) and CarRacing (track tiles near the car,
 * visited tiles, kerbs, car). Each draws one step's `env.snapshot()`, which is untrusted JSON.
 */
import { drawMessage, numField, type SceneContext, type SceneRenderer } from './registry';

type Poly = number[];

function isNumbers(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** A flat [x0, y0, x1, y1, …] list or a list of [x, y] pairs, as flat numbers. */
function flat(v: unknown): Poly | null {
  if (isNumbers(v)) return v.length >= 4 && v.length % 2 === 0 ? v : null;
  if (Array.isArray(v) && v.every((p) => isNumbers(p) && p.length === 2)) return (v as number[][]).flat();
  return null;
}

function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
}

/** World → canvas with y up. */
interface View {
  sx(x: number): number;
  sy(y: number): number;
  scale: number;
}

function fillPoly(ctx: CanvasRenderingContext2D, view: View, p: Poly, fill: string, stroke?: string): void {
  ctx.beginPath();
  for (let i = 0; i < p.length; i += 2) {
    const x = view.sx(p[i] as number);
    const y = view.sy(p[i + 1] as number);
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  if (stroke) {
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
}

export const lunarLanderRenderer: SceneRenderer = {
  family: 'box2d/lunarlander',
  stepsPerSecond: 50,
  aspect: 1.5,
  describe: (s) => {
    const lander = flat((field(s, 'lander') as unknown[] | undefined)?.[0]);
    const contact = field(s, 'groundContact');
    return lander ? `lander near x=${(lander[0] as number).toFixed(2)}, y=${(lander[1] as number).toFixed(2)}; legs touching: ${JSON.stringify(contact)}` : 'no lander';
  },
  draw(sc, snap) {
    const world = field(snap, 'world');
    const terrain = field(world, 'terrain');
    const body = flat((field(snap, 'lander') as unknown[] | undefined)?.[0]);
    if (!Array.isArray(terrain) || !body) return drawMessage(sc, 'No lander state in this step');
    const { ctx, width, height, theme: t } = sc;
    const W = 20;
    const H = 400 / 30;
    const view: View = { scale: width / W, sx: (x) => (x / W) * width, sy: (y) => height - (y / H) * height };
    ctx.fillStyle = t.background;
    ctx.fillRect(0, 0, width, height);
    // Moon: the smoothed terrain closed down to the bottom edge.
    const pts = flat(terrain);
    if (pts) fillPoly(ctx, view, [...pts, W, 0, 0, 0], t.muted);
    const padY = numField(world, 'helipadY');
    for (const key of ['helipadX1', 'helipadX2']) {
      const x = numField(world, key);
      if (x === null || padY === null) continue;
      ctx.strokeStyle = t.foreground;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(view.sx(x), view.sy(padY));
      ctx.lineTo(view.sx(x), view.sy(padY) - 50 * (height / 400));
      ctx.stroke();
      fillPoly(ctx, view, [x, padY + 50 / 30, x, padY + 40 / 30, x + 25 / 30, padY + 45 / 30], t.orange);
    }
    const contact = field(snap, 'groundContact');
    const legs = field(snap, 'legs');
    if (Array.isArray(legs)) legs.forEach((leg, i) => {
      const p = flat(leg);
      if (p) fillPoly(ctx, view, p, Array.isArray(contact) && contact[i] ? t.green : t.blue);
    });
    fillPoly(ctx, view, body, t.blue, t.foreground);
    // Engine flames, sized by the last step's throttle.
    const power = field(snap, 'enginePower');
    if (isNumbers(power) && (power[0] as number) > 0) {
      let cx = 0;
      let cy = 0;
      for (let i = 0; i < body.length; i += 2) {
        cx += body[i] as number;
        cy += body[i + 1] as number;
      }
      cx /= body.length / 2;
      cy /= body.length / 2;
      ctx.fillStyle = t.orange;
      ctx.beginPath();
      ctx.arc(view.sx(cx), view.sy(cy) + 12 * (height / 400), 4 * (power[0] as number) * (height / 400) * 2, 0, 2 * Math.PI);
      ctx.fill();
    }
  },
};

export const bipedalWalkerRenderer: SceneRenderer = {
  family: 'box2d/bipedalwalker',
  stepsPerSecond: 50,
  aspect: 1.5,
  describe: (s) => {
    const pos = field(s, 'hullPosition');
    return isNumbers(pos) ? `walker hull at x=${(pos[0] as number).toFixed(2)} m` : 'no walker';
  },
  draw(sc, snap) {
    const pos = field(snap, 'hullPosition');
    const hull = flat(field(snap, 'hull'));
    if (!isNumbers(pos) || !hull) return drawMessage(sc, 'No walker state in this step');
    const { ctx, width, height, theme: t } = sc;
    const spanX = 20;
    const spanY = spanX / 1.5;
    const x0 = (pos[0] as number) - spanX / 4;
    const y0 = 0;
    const view: View = { scale: width / spanX, sx: (x) => ((x - x0) / spanX) * width, sy: (y) => height - ((y - y0) / spanY) * height };
    ctx.fillStyle = t.background;
    ctx.fillRect(0, 0, width, height);
    const terrain = flat(field(snap, 'terrain'));
    if (terrain) fillPoly(ctx, view, [...terrain, terrain[terrain.length - 2] as number, y0, terrain[0] as number, y0], t.green);
    const obstacles = field(snap, 'obstacles');
    if (Array.isArray(obstacles)) for (const o of obstacles) {
      const p = flat(o);
      if (p) fillPoly(ctx, view, p, t.muted, t.foreground);
    }
    // Lidar: ten rays fanning from straight down to 77° forward, cut where they hit.
    const lidar = field(snap, 'lidar');
    const range = numField(snap, 'lidarRange') ?? 160 / 30;
    if (isNumbers(lidar)) {
      ctx.strokeStyle = t.red;
      ctx.lineWidth = 1;
      lidar.forEach((fraction, i) => {
        const a = (1.5 * i) / 10;
        ctx.beginPath();
        ctx.moveTo(view.sx(pos[0] as number), view.sy(pos[1] as number));
        ctx.lineTo(view.sx((pos[0] as number) + Math.sin(a) * range * fraction), view.sy((pos[1] as number) - Math.cos(a) * range * fraction));
        ctx.stroke();
      });
    }
    const legs = field(snap, 'legs');
    const contact = field(snap, 'groundContact');
    if (Array.isArray(legs)) {
      // Far leg (the right one, drawn first) darker, as Gymnasium shades them.
      [2, 3, 0, 1].forEach((i) => {
        const p = flat(legs[i]);
        const touching = Array.isArray(contact) && (i === 1 ? contact[0] : i === 3 ? contact[1] : false);
        if (p) fillPoly(ctx, view, p, touching ? t.green : i >= 2 ? t.muted : t.blue, t.foreground);
      });
    }
    fillPoly(ctx, view, hull, t.orange, t.foreground);
  },
};

export const carRacingRenderer: SceneRenderer = {
  family: 'box2d/carracing',
  stepsPerSecond: 50,
  aspect: 1,
  describe: (s) => `car on tile count ${numField(s, 'tilesVisited') ?? '?'} of ${numField(s, 'tileCount') ?? '?'} visited`,
  draw(sc: SceneContext, snap) {
    const hull = field(snap, 'hull');
    const hx = numField(hull, 'x');
    const hy = numField(hull, 'y');
    const angle = numField(hull, 'angle');
    if (hx === null || hy === null || angle === null) return drawMessage(sc, 'No car state in this step');
    const { ctx, width, height, theme: t } = sc;
    // A camera that follows and turns with the car, like the observation (car pointing up).
    const span = 60;
    const scale = width / span;
    const c = Math.cos(-angle);
    const s = Math.sin(-angle);
    const toCanvas = (x: number, y: number): [number, number] => {
      const dx = x - hx;
      const dy = y - hy;
      return [width / 2 + (dx * c - dy * s) * scale, height * 0.7 - (dx * s + dy * c) * scale];
    };
    const view: View = { scale, sx: (x) => x, sy: (y) => y };
    const project = (p: Poly): Poly => {
      const out: number[] = [];
      for (let i = 0; i < p.length; i += 2) out.push(...toCanvas(p[i] as number, p[i + 1] as number));
      return out;
    };
    ctx.fillStyle = '#66cc66';
    ctx.fillRect(0, 0, width, height);
    const polys = field(snap, 'polygons');
    if (Array.isArray(polys)) for (const p of polys) {
      const pts = flat(field(p, 'points'));
      if (!pts) continue;
      const kerb = field(p, 'kerb');
      const color = kerb === 'red' ? '#ff0000' : kerb === 'white' ? '#ffffff' : field(p, 'visited') === true ? '#7a7a7a' : '#666666';
      fillPoly(ctx, view, project(pts), color);
    }
    const wheels = field(snap, 'wheels');
    if (Array.isArray(wheels)) for (const w of wheels) {
      const wx = numField(w, 'x');
      const wy = numField(w, 'y');
      const wa = numField(w, 'angle');
      if (wx === null || wy === null || wa === null) continue;
      const cw = Math.cos(wa);
      const sw = Math.sin(wa);
      const corners = [[-0.28, -0.54], [0.28, -0.54], [0.28, 0.54], [-0.28, 0.54]].flatMap(([lx, ly]) => [wx + cw * (lx as number) - sw * (ly as number), wy + sw * (lx as number) + cw * (ly as number)]);
      fillPoly(ctx, view, project(corners), '#000000');
    }
    const ch = Math.cos(angle);
    const sh = Math.sin(angle);
    const body = [[-1.2, 2.6], [1.2, 2.6], [1.0, -1.8], [-1.0, -1.8]].flatMap(([lx, ly]) => [hx + ch * (lx as number) - sh * (ly as number), hy + sh * (lx as number) + ch * (ly as number)]);
    fillPoly(ctx, view, project(body), '#cc0000', t.foreground);
  },
};
