/**
 * What the replay panel shows at chosen steps, read through the real UI (the scrubber): the
 * scene's pixels, the observation readout and the screen-reader description, plus the drawn
 * observation view when the environment has one. Tests that load one episode in two stored forms
 * compare these.
 */
import type { PanelPage } from './harness';

export interface ReplayFrame { scene: string; view?: string; observation: string; described: string }

export async function replayFrames(p: PanelPage, steps: readonly number[], opts: { view?: boolean } = {}): Promise<ReplayFrame[]> {
  const out: ReplayFrame[] = [];
  for (const t of steps) {
    await p.page.locator('input[data-role="scrubber"]').fill(String(t));
    await p.page.click('h1');
    const frame: ReplayFrame = {
      scene: await p.page.$eval('canvas.scene-canvas', (c) => (c as HTMLCanvasElement).toDataURL()),
      observation: (await p.page.textContent('dd[data-field="observation"]')) ?? '',
      described: (await p.page.textContent('section.scene p.sr-only')) ?? '',
    };
    if (opts.view) frame.view = await p.page.$eval('canvas[data-role="obs-view"]', (c) => (c as HTMLCanvasElement).toDataURL());
    out.push(frame);
  }
  return out;
}
