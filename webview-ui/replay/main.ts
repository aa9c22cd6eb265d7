/**
 * Episode replay: the recorded states drawn by the family's renderer, with play/pause/step,
 * speed and a scrubber; per-step observation, action, reward and return; small charts with the
 * current step marked; and a matched comparison of the same case under two submissions.
 */
import 'uplot/dist/uPlot.min.css';
import '../shared/base.css';
import './replay.css';
import '../shared/elements';
import type uPlot from 'uplot';
import type { HostToWebview, ReplayLoad, ReplayState, ReplayTarget } from '../../src/protocol/webview';
import { axes, ChartCard, type ChartBuilder } from '../shared/chartCard';
import { h, hx } from '../shared/dom';
import { exportCanvasPng, exportCsv, exportJson } from '../shared/exporter';
import { connectHost } from '../shared/hostBridge';
import { onThemeChange, readTheme, type ThemeColors } from '../shared/theme';
import { Player } from './player';
import { fallbackRenderer, rendererFor, type SceneRenderer } from './renderers';
import { episodeResult, replayScoreFormat } from './model';
import { buildTimeline, formatValue, type Timeline } from './timeline';

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];

const bridge = connectHost('replay', onMessage);
let state: ReplayState = bridge.restored ?? { panel: 'replay', target: null, step: 0, speed: 1 };
let load: ReplayLoad | null = null;
let sides: Timeline[] = [];
let renderer: SceneRenderer = fallbackRenderer;
/** The run's number format for returns (src/stats/scoreFormat.ts), set by each load. */
let fmt = replayScoreFormat(null);
let theme: ThemeColors = readTheme();
const scenes: SceneView[] = [];

const player = new Player(1, 10, state.speed, (f) => showFrame(f), (playing) => onPlaying(playing));

// ---- layout -----------------------------------------------------------------------------------

const subtitle = h('span', { class: 'subtitle' }, 'Waiting for an episode…');
const hostError = h('div', { class: 'banner error', role: 'alert', hidden: true });
const btn = (label: string, text: string, onClick: () => void, key: string): HTMLElement => {
  const b = hx('vscode-button', { secondary: true, 'aria-label': label, title: `${label} (${key})` }, text);
  b.addEventListener('click', onClick);
  return b;
};
const playBtn = hx('vscode-button', { 'aria-label': 'Play', title: 'Play / pause (Space)', 'data-role': 'play', 'aria-pressed': 'false' }, 'Play');
playBtn.addEventListener('click', () => player.toggle());
const scrubber = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, class: 'scrubber', 'aria-label': 'Step', 'data-role': 'scrubber' });
scrubber.addEventListener('input', () => {
  player.pause();
  player.seek(Number(scrubber.value));
});
const stepLabel = h('span', { class: 'step-label', 'aria-live': 'off' }, '0 / 0');
const speedSelect = hx('vscode-single-select', { 'aria-label': 'Playback speed', 'data-role': 'speed' });
for (const s of SPEEDS) speedSelect.appendChild(hx('vscode-option', { value: String(s), selected: s === state.speed }, `${s}×`));
speedSelect.addEventListener('change', () => {
  const v = Number((speedSelect as HTMLElement & { value: string }).value);
  if (Number.isFinite(v) && v > 0) setSpeed(v);
});
const compareSelect = hx('vscode-single-select', { 'aria-label': 'Compare with submission', 'data-role': 'compare' });
compareSelect.addEventListener('change', () => {
  if (load === null) return;
  const v = (compareSelect as HTMLElement & { value: string }).value;
  const base = sides[0]?.submission;
  if (base === undefined) return;
  bridge.post({ type: 'openReplay', submission: base, caseIndex: load.caseIndex, compareWith: v === '' ? undefined : Number(v) });
});

const controls = h('div', { class: 'controls', role: 'toolbar', 'aria-label': 'Playback' },
  btn('First step', '|◀', () => { player.pause(); player.seek(0); }, 'Home'),
  btn('Previous step', '◀', () => player.step(-1), 'Left arrow'),
  playBtn,
  btn('Next step', '▶', () => player.step(1), 'Right arrow'),
  btn('Last step', '▶|', () => { player.pause(); player.seek(player.frames - 1); }, 'End'),
  h('label', { class: 'control-label' }, 'Speed', speedSelect),
  scrubber,
  stepLabel,
);
const compareBar = h('div', { class: 'compare-bar' }, h('label', { class: 'control-label' }, 'Compare with', compareSelect));
const sceneGrid = h('div', { class: 'scenes' });
const rewardChart = new ChartCard(bridge, 'Reward per step', 150);
const returnChart = new ChartCard(bridge, 'Return so far', 150);
const obsChart = new ChartCard(bridge, 'Observation', 150, 'Observations are not a numeric vector.');
const stepsExport = h('section', { class: 'card', 'aria-label': 'Steps' },
  h('header', { class: 'card-header' }, h('h2', {}, 'Steps'), h('div', { class: 'card-actions' },
    actionButton('CSV', 'Export all steps as CSV', exportStepsCsv), actionButton('JSON', 'Export all steps as JSON', exportStepsJson))),
  h('p', { class: 'muted' }, 'Every recorded step: observation, action, reward and return.'));

document.body.appendChild(h('main', { id: 'replay' },
  h('header', { class: 'page-header' }, h('h1', {}, 'Episode replay'), subtitle),
  hostError,
  h('div', { class: 'toolbar-row' }, controls, compareBar),
  sceneGrid,
  h('div', { class: 'grid charts3' }, rewardChart.element, returnChart.element, obsChart.element),
  stepsExport,
));

document.addEventListener('keydown', (e) => {
  const tgt = e.target as HTMLElement | null;
  if (tgt && (tgt.tagName === 'VSCODE-SINGLE-SELECT' || tgt.tagName === 'INPUT' && tgt !== scrubber)) return;
  if (e.key === ' ' && tgt?.tagName !== 'VSCODE-BUTTON') { e.preventDefault(); player.toggle(); }
  else if (e.key === 'ArrowRight' && tgt !== scrubber) { e.preventDefault(); player.step(1); }
  else if (e.key === 'ArrowLeft' && tgt !== scrubber) { e.preventDefault(); player.step(-1); }
  else if (e.key === 'Home' && tgt !== scrubber) { e.preventDefault(); player.pause(); player.seek(0); }
  else if (e.key === 'End' && tgt !== scrubber) { e.preventDefault(); player.pause(); player.seek(player.frames - 1); }
});

onThemeChange(() => {
  theme = readTheme();
  for (const c of [rewardChart, returnChart, obsChart]) c.rebuild();
  for (const s of scenes) s.resize();
  showFrame(player.frame);
});

// ---- messages -----------------------------------------------------------------------------------

function onMessage(m: HostToWebview): void {
  if (m.type === 'host.error') {
    hostError.textContent = m.message;
    hostError.hidden = false;
    return;
  }
  if (m.type !== 'replay.load') {
    bridge.log('warn', `replay ignores "${m.type}" messages`);
    return;
  }
  player.pause();
  hostError.hidden = true;
  load = m;
  fmt = replayScoreFormat(m);
  renderer = rendererFor(m.family, fallbackRenderer);
  sides = m.sides.map((side) => buildTimeline(side, renderer));
  const target: ReplayTarget = { submission: m.sides[0]?.submission ?? 0, caseIndex: m.caseIndex, compareWith: m.sides[1]?.submission };
  // Same episode as before a reload: keep the step the user was on.
  const sameTarget = state.target !== null && state.target.submission === target.submission && state.target.caseIndex === target.caseIndex && state.target.compareWith === target.compareWith;
  const frames = Math.max(...sides.map((s) => s.frames));
  player.frames = frames;
  player.stepsPerSecond = renderer.stepsPerSecond;
  player.frame = sameTarget ? Math.min(state.step, frames - 1) : 0;
  state = { ...state, target, step: player.frame };
  bridge.saveState(state);

  subtitle.textContent = `${m.envId} · case ${m.caseIndex} · ${sides.map((s) => `#${s.submission}`).join(' vs ')}`;
  scrubber.max = String(frames - 1);
  buildScenes();
  buildCompare(m);
  rewardChart.update(stepChart('reward', 'reward', (t) => t.rewards, 1));
  returnChart.update(stepChart('return', 'return', (t) => t.returns, 0));
  obsChart.update(observationChart());
  showFrame(player.frame);
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function buildCompare(m: ReplayLoad): void {
  const current = m.sides[1]?.submission;
  const options = [...new Set(m.comparable ?? [])].filter((n) => n !== m.sides[0]?.submission).sort((a, b) => a - b);
  if (current !== undefined && !options.includes(current)) options.unshift(current);
  compareSelect.replaceChildren(hx('vscode-option', { value: '', selected: current === undefined }, 'No comparison'),
    ...options.map((n) => hx('vscode-option', { value: String(n), selected: n === current }, `Submission #${n}`)));
  compareBar.hidden = options.length === 0;
}

// ---- scenes -------------------------------------------------------------------------------------

class SceneView {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly desc: HTMLParagraphElement;
  private readonly fields: Record<'step' | 'observation' | 'action' | 'reward' | 'return', HTMLElement>;
  private width = 0;
  private height = 0;
  private lastDescribed = -1;

  constructor(readonly timeline: Timeline, private readonly label: string) {
    this.canvas = h('canvas', { class: 'scene-canvas', role: 'img', 'aria-label': `${label} scene` });
    this.desc = h('p', { class: 'sr-only', 'aria-live': 'polite' });
    const dd = (k: string): HTMLElement => h('dd', { 'data-field': k });
    this.fields = { step: dd('step'), observation: dd('observation'), action: dd('action'), reward: dd('reward'), return: dd('return') };
    const ep = timeline.status ? ` · ${timeline.status}` : '';
    const png = actionButton('PNG', `Export the ${label} scene as PNG`, () => exportCanvasPng(bridge, `replay-${timeline.submission}-step-${player.frame}.png`, this.canvas));
    this.element = h('section', { class: 'card scene', 'aria-label': label, 'data-submission': timeline.submission },
      h('header', { class: 'card-header' }, h('h2', {}, `${label}${ep} · ${episodeResult(load?.sides.find((s) => s.submission === timeline.submission)?.episode ?? null, { return: timeline.returns[timeline.frames - 1] ?? 0, steps: timeline.frames - 1 }, fmt)}`), h('div', { class: 'card-actions' }, png)),
      timeline.problem ? h('div', { class: 'banner' }, timeline.problem) : null,
      timeline.fromObservations ? h('p', { class: 'muted note' }, 'No environment snapshots were recorded: the scene is drawn from what the policy observed.') : null,
      h('div', { class: 'scene-body' },
        h('div', { class: 'scene-view' }, this.canvas, this.desc),
        h('dl', { class: 'step-fields' },
          h('dt', {}, 'Step'), this.fields.step,
          h('dt', {}, 'Observation'), this.fields.observation,
          h('dt', {}, 'Action'), this.fields.action,
          h('dt', {}, 'Reward'), this.fields.reward,
          h('dt', {}, 'Return'), this.fields.return)));
  }

  resize(): void {
    // The canvas is 100% of its card (CSS); its backing store follows the laid-out width.
    const w = Math.max(200, Math.floor(this.canvas.getBoundingClientRect().width));
    const hgt = Math.round(Math.min(380, w / renderer.aspect));
    if (w === this.width && hgt === this.height) return;
    this.width = w;
    this.height = hgt;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(hgt * dpr);
    this.canvas.style.height = `${hgt}px`;
  }

  show(frame: number): void {
    const t = this.timeline;
    const f = Math.min(frame, t.frames - 1);
    const ctx = this.canvas.getContext('2d');
    if (ctx === null) return;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, this.width, this.height);
    const step = f > 0 ? t.steps[f - 1] : undefined;
    renderer.draw({ ctx, width: this.width, height: this.height, theme }, t.snapshots[f], { index: f, action: step?.action, reward: step?.reward });
    if (f < frame) {
      ctx.fillStyle = theme.muted;
      ctx.font = `12px ${theme.font}`;
      ctx.textBaseline = 'top';
      ctx.fillText(`episode ended at step ${t.frames - 1}`, 8, 8);
    }
    this.fields.step.textContent = `${f} of ${t.frames - 1}${f === 0 ? ' (after reset)' : ''}`;
    this.fields.observation.textContent = step ? formatValue(step.observation) : '—';
    this.fields.action.textContent = step ? formatValue(step.action) : '—';
    this.fields.reward.textContent = step ? formatValue(step.reward) : '—';
    this.fields.return.textContent = fmt.score(t.returns[f] ?? 0);
    // Describe the scene to screen readers only when playback rests, not 60 times a second.
    if (!player.playing && this.lastDescribed !== f) {
      this.lastDescribed = f;
      this.desc.textContent = `${this.label}, step ${f}: ${renderer.describe(t.snapshots[f])}`;
    }
  }
}

function buildScenes(): void {
  scenes.length = 0;
  const two = sides.length > 1;
  for (const t of sides) scenes.push(new SceneView(t, two ? `Submission #${t.submission}` : `Submission #${t.submission}`));
  sceneGrid.replaceChildren(...scenes.map((s) => s.element));
  sceneGrid.classList.toggle('two', two);
  for (const s of scenes) s.resize();
}

new ResizeObserver(() => {
  for (const s of scenes) s.resize();
  showFrame(player.frame);
}).observe(sceneGrid);

// ---- frame updates ------------------------------------------------------------------------------

const probe = (globalThis as { __pfFrameProbe?: number[] }).__pfFrameProbe;
let lastScrubberPaint = 0;

function showFrame(frame: number): void {
  const t0 = probe ? performance.now() : 0;
  for (const s of scenes) s.show(frame);
  // Repainting a range input costs about as much as both scenes (measured in headless
  // Chromium): while playing, move the thumb ~8 times a second; at rest, every change.
  const now = performance.now();
  if (!player.playing || now - lastScrubberPaint > 120 || frame === player.frames - 1) {
    lastScrubberPaint = now;
    scrubber.value = String(frame);
    scrubber.setAttribute('aria-valuetext', `step ${frame} of ${player.frames - 1}`);
  }
  stepLabel.textContent = `${frame} / ${player.frames - 1}`;
  for (const c of [rewardChart, returnChart, obsChart]) moveMarker(c, frame);
  // Before the first load there is no episode: keep the restored step for it.
  if (!player.playing && load !== null) saveStep(frame);
  if (probe) probe.push(performance.now() - t0);
}

function onPlaying(playing: boolean): void {
  playBtn.textContent = playing ? 'Pause' : 'Play';
  playBtn.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  playBtn.setAttribute('aria-pressed', String(playing));
  document.body.dataset['playing'] = String(playing);
  if (!playing) showFrame(player.frame);
}

function setSpeed(v: number): void {
  player.speed = v;
  state = { ...state, speed: v };
  bridge.saveState(state);
}

function saveStep(frame: number): void {
  if (state.step === frame) return;
  state = { ...state, step: frame };
  bridge.saveState(state);
}

/** A vertical line over the plot at the current step, moved with CSS instead of redrawing the chart. */
const markers = new WeakMap<uPlot, HTMLDivElement>();
function moveMarker(card: ChartCard, frame: number): void {
  const u = card.uplot;
  if (u === null) return;
  let m = markers.get(u);
  if (m === undefined) {
    m = h('div', { class: 'step-marker', 'aria-hidden': 'true' });
    u.over.appendChild(m);
    markers.set(u, m);
  }
  const xs = u.data[0];
  const inRange = xs.length > 0 && frame >= (xs[0] ?? 0) && frame <= (xs[xs.length - 1] ?? 0);
  m.hidden = !inRange;
  if (inRange) m.style.transform = `translateX(${Math.round(u.valToPos(frame, 'x'))}px)`;
}

// ---- charts -------------------------------------------------------------------------------------

function sideColors(t: ThemeColors): string[] {
  return [t.blue, t.orange];
}

function stepChart(name: string, yLabel: string, pick: (t: Timeline) => Float64Array, from: number): ChartBuilder {
  return (t) => {
    if (sides.length === 0) return null;
    const frames = Math.max(...sides.map((s) => s.frames));
    const xs = Array.from({ length: frames - from }, (_, i) => i + from);
    const colors = sideColors(t);
    return {
      opts: {
        series: [{ label: 'step' }, ...sides.map((s, i) => ({ label: `#${s.submission}`, stroke: colors[i] ?? t.foreground, width: 1.5, points: { show: false } }))],
        axes: axes(t, 'step', yLabel),
        scales: { x: { time: false } },
        cursor: { show: false },
        legend: { show: sides.length > 1 },
      },
      data: [xs, ...sides.map((s) => xs.map((x) => (x < s.frames ? (pick(s)[x] ?? null) : null)))] as uPlot.AlignedData,
      description: `${name} over ${frames - 1} steps for ${sides.map((s) => `submission ${s.submission}`).join(' and ')}.`,
    };
  };
}

function observationChart(): ChartBuilder {
  return (t) => {
    const s = sides[0];
    const m = s?.obsMatrix;
    if (s === undefined || m === null || m === undefined || m.length === 0) return null;
    const dims = m[0]?.length ?? 0;
    const palette = [t.blue, t.orange, t.green, t.purple, t.red, t.yellow, t.foreground, t.muted];
    const xs = m.map((_, i) => i + 1);
    return {
      opts: {
        series: [{ label: 'step' }, ...Array.from({ length: dims }, (_, d) => ({ label: `obs[${d}]`, stroke: palette[d % palette.length] ?? t.foreground, width: 1.2, points: { show: false } }))],
        axes: axes(t, 'step', 'value'),
        scales: { x: { time: false } },
        cursor: { show: false },
      },
      data: [xs, ...Array.from({ length: dims }, (_, d) => m.map((row) => row[d] ?? null))] as uPlot.AlignedData,
      description: `${dims} observation components over ${m.length} steps of submission ${s.submission}.`,
    };
  };
}

// ---- export -------------------------------------------------------------------------------------

function stepRows(): (string | number | null)[][] {
  const rows: (string | number | null)[][] = [];
  for (const s of sides) {
    s.steps.forEach((st, i) => rows.push([s.submission, i + 1, JSON.stringify(st.observation), JSON.stringify(st.action), st.reward, s.returns[i + 1] ?? null, st.terminated, st.truncated].map((v) => (typeof v === 'boolean' ? String(v) : v))));
  }
  return rows;
}

function exportStepsCsv(): void {
  exportCsv(bridge, `replay-case-${load?.caseIndex ?? 0}.csv`, ['submission', 'step', 'observation', 'action', 'reward', 'return', 'terminated', 'truncated'], stepRows());
}

function exportStepsJson(): void {
  exportJson(bridge, `replay-case-${load?.caseIndex ?? 0}.json`, { envId: load?.envId, caseIndex: load?.caseIndex, sides: load?.sides });
}

function actionButton(text: string, label: string, onClick: () => void): HTMLElement {
  const b = hx('vscode-button', { secondary: true, 'aria-label': label, title: label }, text);
  b.addEventListener('click', onClick);
  return b;
}
