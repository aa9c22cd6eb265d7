/**
 * Episode replay: the recorded states drawn by the family's renderer, with play/pause/step,
 * speed and a scrubber; for the frame on screen, what the policy observed there (drawn, when the
 * family has a picture for it), the action it chose, the reward and the return; a table of every
 * step; small charts with the frame marked; the episode's error when it failed; and a matched
 * comparison of the same case under two submissions.
 *
 * Frame t is the state at time t (0: right after reset). Its readout is the observation the
 * policy got in that state and the action it chose from it, so picture and numbers always agree.
 */
import 'uplot/dist/uPlot.min.css';
import '@vscode/codicons/dist/codicon.css';
import '../shared/base.css';
import './replay.css';
import '../shared/elements';
import type { EpisodeSummary } from '../../src/protocol/feedback';
import type { HostToWebview, ReplayLoad, ReplayState, ReplayTarget } from '../../src/protocol/webview';
import { ChartCard } from '../shared/chartCard';
import { actionButton, linkButton } from '../shared/controls';
import { h, hx } from '../shared/dom';
import { exportCanvasPng } from '../shared/exporter';
import { connectHost } from '../shared/hostBridge';
import { onThemeChange, readTheme, type ThemeColors } from '../shared/theme';
import { observationChart, stepChart, StepMarkers } from './charts';
import { Player } from './player';
import { fallbackRenderer, rendererFor, type SceneRenderer } from './renderers';
import { episodeResult, plainSide, replayScoreFormat } from './model';
import { createStepTable, rowKey, stepRows } from './stepTable';
import { actionText, buildTimeline, formatValue, type Timeline } from './timeline';
import { EpisodeSkillsView } from './episodeSkills';

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
const codicon = (name: string): HTMLElement => h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
const btn = (label: string, icon: string, onClick: () => void, key: string, role: string): HTMLElement => {
  const b = hx('vscode-button', { secondary: true, 'icon-only': true, 'aria-label': label, title: `${label} (${key})`, 'data-role': role }, codicon(icon));
  b.addEventListener('click', onClick);
  return b;
};
const playIcon = codicon('play');
const playBtn = hx('vscode-button', { 'icon-only': true, 'aria-label': 'Play', title: 'Play / pause (Space)', 'data-role': 'play', 'aria-pressed': 'false' }, playIcon);
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
const compareNone = h('span', { class: 'muted', 'data-role': 'compare-none', hidden: true });
compareSelect.addEventListener('change', () => {
  if (load === null) return;
  const v = (compareSelect as HTMLElement & { value: string }).value;
  const base = sides[0]?.submission;
  if (base === undefined) return;
  bridge.post({ type: 'openReplay', submission: base, caseIndex: load.caseIndex, compareWith: v === '' ? undefined : Number(v) });
});

const controls = h('div', { class: 'controls', role: 'toolbar', 'aria-label': 'Playback' },
  btn('First step', 'debug-reverse-continue', () => { player.pause(); player.seek(0); }, 'Home', 'first'),
  btn('Previous step', 'chevron-left', () => player.step(-1), 'Left arrow', 'previous'),
  playBtn,
  btn('Next step', 'chevron-right', () => player.step(1), 'Right arrow', 'next'),
  btn('Last step', 'debug-continue', () => { player.pause(); player.seek(player.frames - 1); }, 'End', 'last'),
  h('label', { class: 'control-label' }, 'Speed', speedSelect),
  scrubber,
  stepLabel,
);
const compareLabel = h('label', { class: 'control-label' }, 'Compare with', compareSelect);
const compareBar = h('div', { class: 'compare-bar' }, compareLabel, compareNone);
const sceneGrid = h('div', { class: 'scenes' });
const rewardChart = new ChartCard(bridge, 'Reward per step', 150);
const returnChart = new ChartCard(bridge, 'Return so far', 150);
const obsChart = new ChartCard(bridge, 'Observation', 150, 'Observations are not a numeric vector.');
const charts = [rewardChart, returnChart, obsChart];
const markers = new StepMarkers(charts);
const stepTable = createStepTable(bridge, {
  names: () => load?.actionNames,
  fmt: () => fmt,
  seek: (t) => { player.pause(); player.seek(t); },
});

document.body.appendChild(h('main', { id: 'replay' },
  h('header', { class: 'page-header' }, h('h1', {}, 'Episode replay'), subtitle),
  hostError,
  h('div', { class: 'toolbar-row' }, controls, compareBar),
  sceneGrid,
  h('div', { class: 'grid charts3' }, rewardChart.element, returnChart.element, obsChart.element),
  stepTable.element,
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
  // The markers follow the rebuilt charts by themselves (StepMarkers re-places them on each draw).
  for (const c of charts) c.rebuild();
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
  sides = m.sides.map((side) => buildTimeline(plainSide(side), renderer));
  const target: ReplayTarget = { submission: m.sides[0]?.submission ?? 0, caseIndex: m.caseIndex, compareWith: m.sides[1]?.submission };
  // Same episode as before a reload: keep the step the user was on.
  const sameTarget = state.target !== null && state.target.submission === target.submission && state.target.caseIndex === target.caseIndex && state.target.compareWith === target.compareWith;
  const frames = Math.max(...sides.map((s) => s.frames));
  player.frames = frames;
  player.stepsPerSecond = renderer.stepsPerSecond;
  player.frame = sameTarget ? Math.min(state.step, frames - 1) : 0;
  state = { ...state, target, step: player.frame };
  bridge.saveState(state);

  // Arena matches: the same opponent and seed on both sides; each side says where it sat and how it ended.
  subtitle.textContent = m.match
    ? `${m.envId} · against ${m.match.opponent} · seed ${m.match.seed} · ${sides.map((s, i) => `#${s.submission} (game ${m.match?.games[i]?.game ?? '?'}, ${m.match?.games[i]?.side ?? '?'}, ${m.match?.games[i]?.outcome ?? '?'})`).join(' vs ')}`
    : `${m.envId} · case ${m.caseIndex} · ${sides.map((s) => `#${s.submission}`).join(' vs ')}`;
  scrubber.max = String(frames - 1);
  buildScenes();
  buildCompare(m);
  rewardChart.update(stepChart(sides, 'reward', 'reward', (t) => t.rewards, 1, () => fmt));
  returnChart.update(stepChart(sides, 'return', 'return', (t) => t.returns, 0, () => fmt));
  obsChart.update(observationChart(sides));
  stepTable.setRows(stepRows(sides));
  showFrame(player.frame);
  document.body.dataset['rendered'] = String(Number(document.body.dataset['rendered'] ?? '0') + 1);
}

function buildCompare(m: ReplayLoad): void {
  const current = m.sides[1]?.submission;
  const options = [...new Set(m.comparable ?? [])].filter((n) => n !== m.sides[0]?.submission).sort((a, b) => a - b);
  if (current !== undefined && !options.includes(current)) options.unshift(current);
  compareSelect.replaceChildren(hx('vscode-option', { value: '', selected: current === undefined }, 'No comparison'),
    ...options.map((n) => hx('vscode-option', { value: String(n), selected: n === current }, `Submission #${n}`)));
  // Say so rather than offer an empty list: nothing else ran this case (or its trajectories are gone).
  const none = options.length === 0;
  compareLabel.hidden = none;
  compareNone.hidden = !none;
  compareNone.textContent = !none ? '' : m.match ? `No other submission played ${m.match.opponent} on seed ${m.match.seed}` : `No other submission ran case ${m.caseIndex}`;
}

// ---- scenes -------------------------------------------------------------------------------------

type Field = 'step' | 'observation' | 'action' | 'reward' | 'return';

class SceneView {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  /** What the policy observed, drawn (MiniGrid's 7×7 view); absent when the family has no picture for it. */
  private readonly obsCanvas: HTMLCanvasElement | null;
  private readonly desc: HTMLParagraphElement;
  private readonly fields: Record<Field, HTMLElement>;
  private readonly skills: EpisodeSkillsView;
  private width = 0;
  private height = 0;
  private lastDescribed = -1;

  constructor(readonly timeline: Timeline, private readonly label: string, episode: EpisodeSummary | null) {
    this.canvas = h('canvas', { class: 'scene-canvas', role: 'img', 'aria-label': `${label} scene` });
    this.desc = h('p', { class: 'sr-only', 'aria-live': 'polite' });
    const dd = (k: Field): HTMLElement => h('dd', { 'data-field': k });
    this.fields = { step: dd('step'), observation: dd('observation'), action: dd('action'), reward: dd('reward'), return: dd('return') };
    this.obsCanvas = renderer.drawObservation ? h('canvas', { class: 'obs-canvas', 'data-role': 'obs-view', role: 'img', 'aria-label': 'What the agent sees' }) : null;
    const ep = timeline.status ? ` · ${timeline.status}` : '';
    this.skills = new EpisodeSkillsView(timeline.skills, timeline.skillMarks, timeline.frames, (f) => { player.pause(); player.seek(f); });
    const png = actionButton('PNG', `Export the ${label} scene as PNG`, () => exportCanvasPng(bridge, `replay-${timeline.submission}-step-${player.frame}.png`, this.canvas));
    this.element = h('section', { class: 'card scene', 'aria-label': label, 'data-submission': timeline.submission },
      h('header', { class: 'card-header' }, h('h2', {}, `${label}${ep} · ${episodeResult(episode, { return: timeline.returns[timeline.frames - 1] ?? 0, steps: timeline.frames - 1 }, fmt)}`), h('div', { class: 'card-actions' }, png)),
      episodeError(episode),
      timeline.problem ? h('div', { class: 'banner' }, timeline.problem) : null,
      timeline.fromObservations ? h('p', { class: 'muted note' }, 'No environment snapshots were recorded: the scene is drawn from what the policy observed.') : null,
      h('div', { class: 'scene-body' },
        h('div', { class: 'scene-view' }, this.canvas, this.desc),
        h('div', { class: 'readout' },
          h('dl', { class: 'step-fields' },
            h('dt', {}, 'Step'), this.fields.step,
            h('dt', { title: 'What the policy observed in this state' }, 'Observation'), this.fields.observation,
            h('dt', { title: 'The action the policy chose from this state' }, 'Action'), this.fields.action,
            h('dt', { title: 'The reward that action earned' }, 'Reward'), this.fields.reward,
            h('dt', { title: 'Rewards up to this state' }, 'Return so far'), this.fields.return),
          this.obsCanvas ? h('figure', { class: 'obs-view' }, this.obsCanvas, h('figcaption', { class: 'muted' }, 'What the agent sees: its 7×7 view, facing up')) : null)),
      this.skills.element);
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
    if (this.obsCanvas) {
      this.obsCanvas.width = Math.round(OBS_VIEW_PX * dpr);
      this.obsCanvas.height = Math.round((OBS_VIEW_PX / (renderer.observationAspect ?? 1)) * dpr);
    }
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
    const led = f > 0 ? t.steps[f - 1] : undefined;
    renderer.draw({ ctx, width: this.width, height: this.height, theme }, t.snapshots[f], { index: f, action: led?.action, reward: led?.reward });
    if (f < frame) {
      ctx.fillStyle = theme.muted;
      ctx.font = `12px ${theme.font}`;
      ctx.textBaseline = 'top';
      ctx.fillText(`episode ended at step ${t.frames - 1}`, 8, 8);
    }
    // The step taken from this state: its observation is the drawn state, as the policy saw it.
    const step = t.steps[f];
    const last = f === t.frames - 1;
    this.fields.step.textContent = `${f} of ${t.frames - 1}${f === 0 ? ' (after reset)' : ''}`;
    this.fields.observation.textContent = step ? formatValue(step.observation) : last && f > 0 ? '— (final state: the episode ended here)' : '—';
    this.fields.action.textContent = step ? actionText(step.action, load?.actionNames) : '—';
    this.fields.reward.textContent = step ? formatValue(step.reward) : '—';
    this.fields.return.textContent = fmt.score(t.returns[f] ?? 0);
    this.drawObservation(step?.observation);
    this.skills.show(f);
    // Describe the scene to screen readers only when playback rests, not 60 times a second.
    if (!player.playing && this.lastDescribed !== f) {
      this.lastDescribed = f;
      this.desc.textContent = `${this.label}, step ${f}: ${renderer.describe(t.snapshots[f])}`;
    }
  }

  private drawObservation(observation: unknown): void {
    const c = this.obsCanvas;
    const ctx = c?.getContext('2d');
    if (c === null || ctx === null || ctx === undefined) return;
    const dpr = window.devicePixelRatio || 1;
    const w = c.width / dpr;
    const hgt = c.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, w, hgt);
    const drawn = observation !== undefined && renderer.drawObservation?.({ ctx, width: w, height: hgt, theme }, observation) === true;
    c.dataset['drawn'] = String(drawn);
    // The final state was never observed: no empty frame where the view would be.
    if (c.parentElement) c.parentElement.hidden = !drawn;
  }
}

/** Size of the drawn observation, CSS pixels (7 tiles of 24). */
const OBS_VIEW_PX = 168;

/** The failure of an episode, as its summary records it, with a link to the policy line. */
function episodeError(e: EpisodeSummary | null): HTMLElement | null {
  if (e === null || e.status === 'ok') return null;
  const what = e.status === 'runner_fault' ? 'Runner fault (not the policy’s)' : `Episode failed: ${e.status.replace('_', ' ')}`;
  const loc = e.error?.location;
  return h('div', { class: 'banner error episode-error', role: 'alert', 'data-role': 'episode-error' },
    h('strong', {}, `${what} after ${e.length} ${e.length === 1 ? 'step' : 'steps'}`),
    e.error ? h('div', { class: 'mono' }, e.error.message) : null,
    loc ? linkButton(`${loc.file}:${loc.line}`, `Open ${loc.file} at line ${loc.line}`, () => bridge.post({ type: 'openSource', file: loc.file, line: loc.line, column: loc.column })) : null);
}

function buildScenes(): void {
  scenes.length = 0;
  for (const t of sides) scenes.push(new SceneView(t, `Submission #${t.submission}`, load?.sides.find((s) => s.submission === t.submission)?.episode ?? null));
  sceneGrid.replaceChildren(...scenes.map((s) => s.element));
  sceneGrid.classList.toggle('two', sides.length > 1);
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
  // Restyling a row of a long table re-lays the table out: mark the step once playback rests.
  if (!player.playing) stepTable.markRows(sides.map((s) => rowKey(s.submission, frame)), true);
  stepLabel.textContent = `${frame} / ${player.frames - 1}`;
  markers.move(frame);
  // Before the first load there is no episode: keep the restored step for it.
  if (!player.playing && load !== null) saveStep(frame);
  if (probe) probe.push(performance.now() - t0);
}

function onPlaying(playing: boolean): void {
  playIcon.className = `codicon codicon-${playing ? 'debug-pause' : 'play'}`;
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
