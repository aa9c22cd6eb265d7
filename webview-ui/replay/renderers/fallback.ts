/** For families without a renderer: the snapshot as text, so a replay still says something. */
import type { SceneRenderer } from './registry';

export const fallbackRenderer: SceneRenderer = {
  family: '*',
  stepsPerSecond: 10,
  aspect: 2,
  describe: (s) => (s === undefined ? 'no snapshot recorded' : JSON.stringify(s).slice(0, 200)),
  draw(sc, snap) {
    const { ctx, theme: t, width } = sc;
    ctx.fillStyle = t.muted;
    ctx.font = `12px ${t.font}`;
    ctx.textBaseline = 'top';
    ctx.fillText('No renderer for this environment family; recorded snapshot:', 12, 12);
    ctx.fillStyle = t.foreground;
    ctx.font = '12px monospace';
    const text = snap === undefined ? '(none)' : JSON.stringify(snap, null, 1) ?? '';
    const lines = text.split('\n').slice(0, 14);
    lines.forEach((l, i) => ctx.fillText(l.length > width / 7 ? `${l.slice(0, Math.floor(width / 7))}…` : l, 12, 34 + i * 16));
  },
};
