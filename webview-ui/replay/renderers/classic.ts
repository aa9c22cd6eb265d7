/** Classic-control scenes, drawn like Gymnasium's renderers from the recorded snapshots. */
import { drawMessage, numbers, numField, type SceneRenderer } from './registry';

const f3 = (v: number): string => v.toFixed(3);

export const cartPoleRenderer: SceneRenderer = {
  family: 'classic/cartpole',
  stepsPerSecond: 50,
  aspect: 2,
  // [x, x_dot, theta, theta_dot]
  fromObservation: (o) => { const v = numbers(o, 4); return v ? { x: v[0], theta: v[2] } : null; },
  describe: (s) => `cart at x=${f3(numField(s, 'x') ?? NaN)}, pole angle ${f3(numField(s, 'theta') ?? NaN)} rad`,
  draw(sc, snap) {
    const x = numField(snap, 'x');
    const theta = numField(snap, 'theta');
    if (x === null || theta === null) return drawMessage(sc, 'No cart-pole state in this step');
    const { ctx, width, height, theme: t } = sc;
    const worldWidth = 2.4 * 2 * 1.15;
    const scale = width / worldWidth;
    const trackY = height * 0.72;
    const cartW = 0.5 * scale * 0.9;
    const cartH = cartW * 0.6;
    const poleLen = 1.0 * scale;
    const cx = width / 2 + x * scale;
    // Track and the ±2.4 termination bounds
    ctx.strokeStyle = t.muted;
    ctx.lineWidth = 1.5;
    line(ctx, 0, trackY, width, trackY);
    ctx.setLineDash([4, 4]);
    for (const b of [-2.4, 2.4]) line(ctx, width / 2 + b * scale, trackY - poleLen * 1.1, width / 2 + b * scale, trackY + 10);
    ctx.setLineDash([]);
    // Cart
    ctx.fillStyle = t.foreground;
    ctx.fillRect(cx - cartW / 2, trackY - cartH / 2, cartW, cartH);
    // Pole (theta > 0 leans right)
    const axleY = trackY - cartH / 4;
    ctx.strokeStyle = t.orange;
    ctx.lineWidth = Math.max(4, scale * 0.1);
    ctx.lineCap = 'round';
    line(ctx, cx, axleY, cx + Math.sin(theta) * poleLen, axleY - Math.cos(theta) * poleLen);
    ctx.lineCap = 'butt';
    ctx.fillStyle = t.blue;
    circle(ctx, cx, axleY, Math.max(3, scale * 0.05));
  },
};

export const mountainCarRenderer: SceneRenderer = {
  family: 'classic/mountaincar',
  stepsPerSecond: 30,
  aspect: 1.6,
  // [position, velocity]; the goal is the environment's default (0.5 for both variants at default parameters)
  fromObservation: (o) => { const v = numbers(o, 2); return v ? { position: v[0], goal: 0.5 } : null; },
  describe: (s) => `car at position ${f3(numField(s, 'position') ?? NaN)}, goal ${f3(numField(s, 'goal') ?? 0.5)}`,
  draw(sc, snap) {
    const pos = numField(snap, 'position');
    if (pos === null) return drawMessage(sc, 'No mountain-car state in this step');
    const goal = numField(snap, 'goal') ?? 0.5;
    const { ctx, width, height, theme: t } = sc;
    const minX = -1.2;
    const maxX = 0.6;
    const hgt = (x: number): number => Math.sin(3 * x) * 0.45 + 0.55;
    const sx = (x: number): number => ((x - minX) / (maxX - minX)) * width;
    const sy = (y: number): number => height - 12 - y * (height * 0.8);
    ctx.strokeStyle = t.muted;
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (let i = 0; i <= 100; i++) {
      const x = minX + ((maxX - minX) * i) / 100;
      if (i === 0) ctx.moveTo(sx(x), sy(hgt(x)));
      else ctx.lineTo(sx(x), sy(hgt(x)));
    }
    ctx.stroke();
    // Flag
    const fx = sx(goal);
    const fy = sy(hgt(goal));
    ctx.strokeStyle = t.foreground;
    ctx.lineWidth = 1.5;
    line(ctx, fx, fy, fx, fy - 40);
    ctx.fillStyle = t.yellow;
    ctx.beginPath();
    ctx.moveTo(fx, fy - 40);
    ctx.lineTo(fx + 22, fy - 34);
    ctx.lineTo(fx, fy - 28);
    ctx.fill();
    // Car, tilted along the slope
    const angle = Math.atan(Math.cos(3 * pos) * 3 * 0.45 * ((height * 0.8) / (width / (maxX - minX))));
    ctx.save();
    ctx.translate(sx(pos), sy(hgt(pos)));
    ctx.rotate(-angle);
    const w = width * 0.07;
    ctx.fillStyle = t.blue;
    ctx.fillRect(-w / 2, -w * 0.55 - 6, w, w * 0.5);
    ctx.fillStyle = t.foreground;
    circle(ctx, -w * 0.3, -5, 5);
    circle(ctx, w * 0.3, -5, 5);
    ctx.restore();
  },
};

export const pendulumRenderer: SceneRenderer = {
  family: 'classic/pendulum',
  stepsPerSecond: 20,
  aspect: 1.2,
  // [cos θ, sin θ, θ_dot]; the torque is the action taken from that state
  fromObservation: (o, a) => {
    const v = numbers(o, 3);
    const u = Array.isArray(a) && typeof a[0] === 'number' ? a[0] : typeof a === 'number' ? a : 0;
    return v ? { theta: Math.atan2(v[1] as number, v[0] as number), lastU: u } : null;
  },
  describe: (s) => `pendulum angle ${f3(numField(s, 'theta') ?? NaN)} rad (0 is upright), last torque ${f3(numField(s, 'lastU') ?? 0)}`,
  draw(sc, snap) {
    const theta = numField(snap, 'theta');
    if (theta === null) return drawMessage(sc, 'No pendulum state in this step');
    const u = numField(snap, 'lastU') ?? 0;
    const { ctx, width, height, theme: t } = sc;
    const cx = width / 2;
    const cy = height / 2;
    const len = Math.min(width, height) * 0.38;
    // Torque arc: length and direction show the last action (max torque 2)
    const arc = (Math.min(2, Math.abs(u)) / 2) * Math.PI * 0.9;
    if (arc > 0.01) {
      ctx.strokeStyle = t.purple;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(cx, cy, len * 0.28, -Math.PI / 2, -Math.PI / 2 - Math.sign(u) * arc, u > 0);
      ctx.stroke();
    }
    // theta = 0 is upright; positive theta turns counter-clockwise (Gymnasium)
    ctx.strokeStyle = t.orange;
    ctx.lineCap = 'round';
    ctx.lineWidth = Math.max(8, len * 0.12);
    line(ctx, cx, cy, cx - Math.sin(theta) * len, cy - Math.cos(theta) * len);
    ctx.lineCap = 'butt';
    ctx.fillStyle = t.foreground;
    circle(ctx, cx, cy, 5);
  },
};

export const acrobotRenderer: SceneRenderer = {
  family: 'classic/acrobot',
  stepsPerSecond: 15,
  aspect: 1.2,
  // [cos θ1, sin θ1, cos θ2, sin θ2, θ1_dot, θ2_dot]
  fromObservation: (o) => { const v = numbers(o, 4); return v ? { theta1: Math.atan2(v[1] as number, v[0] as number), theta2: Math.atan2(v[3] as number, v[2] as number) } : null; },
  describe: (s) => `link angles ${f3(numField(s, 'theta1') ?? NaN)} and ${f3(numField(s, 'theta2') ?? NaN)} rad`,
  draw(sc, snap) {
    const t1 = numField(snap, 'theta1');
    const t2 = numField(snap, 'theta2');
    if (t1 === null || t2 === null) return drawMessage(sc, 'No acrobot state in this step');
    const { ctx, width, height, theme: t } = sc;
    const cx = width / 2;
    const cy = height / 2;
    const scale = Math.min(width, height) / 4.6;
    const p1 = [cx + Math.sin(t1) * scale, cy + Math.cos(t1) * scale] as const;
    const p2 = [p1[0] + Math.sin(t1 + t2) * scale, p1[1] + Math.cos(t1 + t2) * scale] as const;
    // Goal: the tip above one link length over the pivot
    ctx.strokeStyle = t.green;
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    line(ctx, 0, cy - scale, width, cy - scale);
    ctx.setLineDash([]);
    ctx.lineCap = 'round';
    ctx.lineWidth = Math.max(6, scale * 0.12);
    ctx.strokeStyle = t.blue;
    line(ctx, cx, cy, p1[0], p1[1]);
    ctx.strokeStyle = t.orange;
    line(ctx, p1[0], p1[1], p2[0], p2[1]);
    ctx.lineCap = 'butt';
    ctx.fillStyle = t.foreground;
    circle(ctx, cx, cy, 5);
    circle(ctx, p1[0], p1[1], 4);
  },
};

function line(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
}

function circle(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
}

