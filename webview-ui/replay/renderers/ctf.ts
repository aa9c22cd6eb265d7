/**
 * Capture-the-flag matches (`CaptureTheFlag-v0`) drawn top-down from the game's snapshots
 * (`CaptureTheFlagEnv.snapshot()`): the field with each team's half tinted in its colour, both
 * teams as heading arrows in team colours, each agent's trail over the last TRAIL_FRAMES frames,
 * tags marked where they happened for a moment afterwards, flags at home, carried (on the carrier)
 * or just captured, and the score and clock. Trails and marks need earlier frames: `prepare`
 * links every snapshot of a side to that side's list, so two sides compared never mix.
 */
import { drawMessage, type SceneContext, type SceneFrame, type SceneRenderer } from './registry';

export interface CtfAgent { id: string; team: string; x: number; y: number; h: number; tagged: boolean; carrying: boolean }
export interface CtfFlag { team: string; x: number; y: number; carrier: string | null }
export interface CtfEventMark { kind: string; agent: string; other?: string }
export interface CtfSnapshot {
  field: { length: number; width: number };
  step: number;
  captures: Record<string, number>;
  agents: CtfAgent[];
  flags: CtfFlag[];
  events: CtfEventMark[];
  /** Game length in steps and seconds per step, when the recording carries them. */
  maxSteps?: number;
  dt?: number;
}

/** Frames of trail behind each agent. */
export const TRAIL_FRAMES = 24;
/** Frames a tag (or capture) stays marked after it happened. */
export const MARK_FRAMES = 10;
/** Radius of the tag mark, metres. */
export const TAG_MARK_RADIUS = 4;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const rec = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function parseCtfSnapshot(s: unknown): CtfSnapshot | null {
  const o = rec(s);
  const field = rec(o?.['field']);
  if (o === null || field === null || !isNum(field['length']) || !isNum(field['width']) || !Array.isArray(o['agents']) || !Array.isArray(o['flags'])) return null;
  const agents: CtfAgent[] = [];
  for (const a of o['agents']) {
    const r = rec(a);
    if (r === null || typeof r['id'] !== 'string' || typeof r['team'] !== 'string' || !isNum(r['x']) || !isNum(r['y']) || !isNum(r['h'])) return null;
    agents.push({ id: r['id'], team: r['team'], x: r['x'], y: r['y'], h: r['h'], tagged: r['tagged'] === true, carrying: r['carrying'] === true });
  }
  const flags: CtfFlag[] = [];
  for (const f of o['flags']) {
    const r = rec(f);
    if (r === null || typeof r['team'] !== 'string' || !isNum(r['x']) || !isNum(r['y'])) return null;
    flags.push({ team: r['team'], x: r['x'], y: r['y'], carrier: typeof r['carrier'] === 'string' ? r['carrier'] : null });
  }
  const captures: Record<string, number> = {};
  for (const [k, v] of Object.entries(rec(o['captures']) ?? {})) if (isNum(v)) captures[k] = v;
  const events: CtfEventMark[] = [];
  for (const e of Array.isArray(o['events']) ? o['events'] : []) {
    const r = rec(e);
    if (r !== null && typeof r['kind'] === 'string' && typeof r['agent'] === 'string') events.push({ kind: r['kind'], agent: r['agent'], ...(typeof r['other'] === 'string' ? { other: r['other'] } : {}) });
  }
  return {
    field: { length: field['length'], width: field['width'] },
    step: isNum(o['step']) ? o['step'] : 0,
    captures, agents, flags, events,
    ...(isNum(o['maxSteps']) ? { maxSteps: o['maxSteps'] } : {}),
    ...(isNum(o['dt']) ? { dt: o['dt'] } : {}),
  };
}

/** Where the field sits on a canvas: a band on top for score and clock, the field below, +y up. */
export interface CtfLayout { x0: number; y0: number; scale: number; band: number; toCanvas(x: number, y: number): [number, number] }

export function ctfLayout(width: number, height: number, field: { length: number; width: number }): CtfLayout {
  const band = 26;
  const margin = 8;
  const scale = Math.max(0.1, Math.min((width - 2 * margin) / field.length, (height - band - 2 * margin) / field.width));
  const x0 = (width - field.length * scale) / 2;
  const y0 = band + margin;
  return { x0, y0, scale, band, toCanvas: (x, y) => [x0 + x * scale, y0 + (field.width - y) * scale] };
}

/** A tag or capture within the last MARK_FRAMES frames, where it happened. */
export interface CtfMark { kind: 'tag' | 'capture'; frame: number; x: number; y: number; by: [number, number] | null; agent: string; other?: string }

/** Tags and captures of frames (frame − MARK_FRAMES, frame], placed where the agent was when it happened. */
export function recentMarks(history: readonly (CtfSnapshot | null)[], frame: number): CtfMark[] {
  const out: CtfMark[] = [];
  for (let f = Math.max(1, frame - MARK_FRAMES + 1); f <= frame; f++) {
    const s = history[f];
    if (!s) continue;
    for (const e of s.events) {
      if (e.kind === 'tag' && e.other !== undefined) {
        const victim = s.agents.find((a) => a.id === e.other);
        const tagger = s.agents.find((a) => a.id === e.agent);
        if (victim) out.push({ kind: 'tag', frame: f, x: victim.x, y: victim.y, by: tagger ? [tagger.x, tagger.y] : null, agent: e.agent, other: e.other });
      } else if (e.kind === 'capture') {
        const a = s.agents.find((x) => x.id === e.agent);
        if (a) out.push({ kind: 'capture', frame: f, x: a.x, y: a.y, by: null, agent: e.agent });
      }
    }
  }
  return out;
}

/** Each side's snapshots, parsed once, keyed by the recorded objects. */
const historyOf = new WeakMap<object, (CtfSnapshot | null)[]>();

function teamColor(sc: SceneContext, team: string): string {
  return team === 'blue' ? sc.theme.blue : team === 'red' ? sc.theme.red : sc.theme.purple;
}

function arrow(ctx: CanvasRenderingContext2D, x: number, y: number, h: number, r: number): void {
  // Canvas y grows downwards while field y grows upwards: the heading's sine flips.
  const c = Math.cos(h), s = -Math.sin(h);
  ctx.beginPath();
  ctx.moveTo(x + c * r * 1.5, y + s * r * 1.5);
  ctx.lineTo(x - c * r + -s * r, y - s * r + c * r);
  ctx.lineTo(x - c * r * 0.4, y - s * r * 0.4);
  ctx.lineTo(x - c * r - -s * r, y - s * r - c * r);
  ctx.closePath();
}

function drawFlag(ctx: CanvasRenderingContext2D, x: number, y: number, size: number, color: string, outline: string): void {
  ctx.strokeStyle = outline;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x, y - size * 1.6);
  ctx.stroke();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x, y - size * 1.6);
  ctx.lineTo(x + size * 1.1, y - size * 1.2);
  ctx.lineTo(x, y - size * 0.8);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
}

function clock(s: CtfSnapshot): string {
  const t = s.dt !== undefined ? `${(s.step * s.dt).toFixed(1)} s` : `step ${s.step}`;
  if (s.maxSteps === undefined) return t;
  return s.dt !== undefined ? `${t} / ${(s.maxSteps * s.dt).toFixed(0)} s` : `${t} / ${s.maxSteps}`;
}

export function drawCtf(sc: SceneContext, snap: CtfSnapshot, history: readonly (CtfSnapshot | null)[] | null, frame: number): void {
  const { ctx, width, height, theme: t } = sc;
  const L = ctfLayout(width, height, snap.field);
  const fw = snap.field.length * L.scale, fh = snap.field.width * L.scale;
  // Halves tinted in their defenders' colours (blue defends x < length/2).
  ctx.save();
  ctx.globalAlpha = t.kind.startsWith('high-contrast') ? 0.22 : 0.1;
  ctx.fillStyle = t.blue;
  ctx.fillRect(L.x0, L.y0, fw / 2, fh);
  ctx.fillStyle = t.red;
  ctx.fillRect(L.x0 + fw / 2, L.y0, fw / 2, fh);
  ctx.restore();
  ctx.strokeStyle = t.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(L.x0, L.y0, fw, fh);
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.moveTo(L.x0 + fw / 2, L.y0);
  ctx.lineTo(L.x0 + fw / 2, L.y0 + fh);
  ctx.stroke();
  ctx.setLineDash([]);

  // Flag homes: where each flag stood at the start of the match.
  const start = history?.[0] ?? null;
  for (const f of start?.flags ?? []) {
    const [hx, hy] = L.toCanvas(f.x, f.y);
    ctx.strokeStyle = teamColor(sc, f.team);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(hx, hy, Math.max(4, 3 * L.scale), 0, Math.PI * 2);
    ctx.stroke();
  }

  // Trails over the last frames, fading out.
  if (history) {
    const from = Math.max(0, frame - TRAIL_FRAMES);
    for (const a of snap.agents) {
      ctx.strokeStyle = teamColor(sc, a.team);
      ctx.lineWidth = 2;
      let prev: [number, number] | null = null;
      for (let f = from; f <= frame; f++) {
        const p = history[f]?.agents.find((x) => x.id === a.id);
        if (!p) { prev = null; continue; }
        const c = L.toCanvas(p.x, p.y);
        if (prev) {
          ctx.globalAlpha = 0.08 + 0.5 * ((f - from) / Math.max(1, frame - from));
          ctx.beginPath();
          ctx.moveTo(prev[0], prev[1]);
          ctx.lineTo(c[0], c[1]);
          ctx.stroke();
        }
        prev = c;
      }
    }
    ctx.globalAlpha = 1;
  }

  // Tags and captures of the last frames, where they happened.
  const marks = history ? recentMarks(history, frame) : snap.events.length ? recentMarks([null, snap], 1) : [];
  for (const m of marks) {
    const [mx, my] = L.toCanvas(m.x, m.y);
    ctx.globalAlpha = 1 - (frame - m.frame) / (MARK_FRAMES + 2);
    if (m.kind === 'tag') {
      if (m.by) {
        const [bx, by] = L.toCanvas(m.by[0], m.by[1]);
        ctx.strokeStyle = t.yellow;
        ctx.lineWidth = 1.5;
        ctx.setLineDash([3, 3]);
        ctx.beginPath();
        ctx.moveTo(bx, by);
        ctx.lineTo(mx, my);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      ctx.fillStyle = t.yellow;
      ctx.beginPath();
      ctx.arc(mx, my, Math.max(7, TAG_MARK_RADIUS * L.scale), 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.strokeStyle = t.green;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(mx, my, Math.max(10, 6 * L.scale), 0, Math.PI * 2);
      ctx.stroke();
    }
  }
  ctx.globalAlpha = 1;

  // Agents: team-coloured arrows along their headings; tagged ones hollow until back home.
  const r = Math.max(5, 2.2 * L.scale);
  for (const a of snap.agents) {
    const [ax, ay] = L.toCanvas(a.x, a.y);
    const col = teamColor(sc, a.team);
    arrow(ctx, ax, ay, a.h, r);
    if (a.tagged) {
      ctx.strokeStyle = col;
      ctx.lineWidth = 2;
      ctx.setLineDash([2, 2]);
      ctx.stroke();
      ctx.setLineDash([]);
    } else {
      ctx.fillStyle = col;
      ctx.fill();
      ctx.strokeStyle = t.background;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
  }

  // Flags: at home, on their carrier, or back home after a capture (the mark shows where).
  for (const f of snap.flags) {
    const [fx, fy] = L.toCanvas(f.x, f.y);
    drawFlag(ctx, fx + (f.carrier ? r * 0.6 : 0), fy - (f.carrier ? r * 0.4 : 0), Math.max(5, 2.5 * L.scale), teamColor(sc, f.team), t.foreground);
  }

  // Score and clock.
  ctx.textBaseline = 'middle';
  ctx.font = `600 14px ${t.font}`;
  const mid = width / 2;
  const blue = `Blue ${snap.captures['blue'] ?? 0}`;
  const red = `${snap.captures['red'] ?? 0} Red`;
  ctx.textAlign = 'right';
  ctx.fillStyle = t.blue;
  ctx.fillText(blue, mid - 10, L.band / 2 + 2);
  ctx.textAlign = 'center';
  ctx.fillStyle = t.foreground;
  ctx.fillText('–', mid, L.band / 2 + 2);
  ctx.textAlign = 'left';
  ctx.fillStyle = t.red;
  ctx.fillText(red, mid + 10, L.band / 2 + 2);
  ctx.font = `12px ${t.font}`;
  ctx.fillStyle = t.muted;
  ctx.textAlign = 'right';
  ctx.fillText(clock(snap), width - 8, L.band / 2 + 2);
  ctx.textAlign = 'left';
  const news = marks.filter((m) => m.frame === frame).map((m) => (m.kind === 'tag' ? `${m.agent} tags ${m.other ?? '?'}` : `${m.agent} captures`));
  if (news.length) {
    ctx.fillStyle = t.foreground;
    ctx.fillText(news.join(' · '), 8, L.band / 2 + 2);
  }
  ctx.textAlign = 'start';
}

const fm = (v: number): string => v.toFixed(1);

export function describeCtf(s: CtfSnapshot): string {
  const score = `blue ${s.captures['blue'] ?? 0} – ${s.captures['red'] ?? 0} red at ${clock(s)}`;
  const carried = s.flags.filter((f) => f.carrier).map((f) => `${f.team} flag carried by ${f.carrier}`);
  const tagged = s.agents.filter((a) => a.tagged).map((a) => a.id);
  const events = s.events.flatMap((e) => {
    if (e.kind === 'tag') {
      const v = s.agents.find((a) => a.id === e.other);
      return [`${e.agent} tagged ${e.other ?? '?'}${v ? ` at (${fm(v.x)}, ${fm(v.y)})` : ''}`];
    }
    return e.kind === 'capture' ? [`${e.agent} captured the flag`] : e.kind === 'grab' ? [`${e.agent} took the flag`] : [];
  });
  return [score, ...carried, tagged.length ? `tagged: ${tagged.join(', ')}` : '', ...events].filter((x) => x !== '').join('; ');
}

export const ctfRenderer: SceneRenderer = {
  family: 'arena/ctf',
  // Four steps a second of game time (dt = 0.25 s): 1× plays in real time.
  stepsPerSecond: 4,
  aspect: 1.8,
  prepare(snapshots) {
    const parsed = snapshots.map(parseCtfSnapshot);
    for (const s of snapshots) if (typeof s === 'object' && s !== null) historyOf.set(s, parsed);
  },
  describe(snapshot) {
    const s = parseCtfSnapshot(snapshot);
    return s === null ? 'no capture-the-flag state in this step' : describeCtf(s);
  },
  draw(sc: SceneContext, snapshot: unknown, frame: SceneFrame) {
    const s = parseCtfSnapshot(snapshot);
    if (s === null) return drawMessage(sc, 'No capture-the-flag state in this step');
    const history = typeof snapshot === 'object' && snapshot !== null ? historyOf.get(snapshot) ?? null : null;
    drawCtf(sc, s, history && history[frame.index] !== undefined ? history : null, frame.index);
  },
};
