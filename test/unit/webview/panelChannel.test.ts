/** The host end of a panel channel: handshake, buffering while hidden, validation of what the webview sends. */
import assert from 'node:assert/strict';
import { PanelChannel, type PanelPort } from '../../../src/extension/panels/panelChannel';
import type { HostToWebview } from '../../../src/protocol/webview';
import { makeRun } from './fixtures';

/** A stand-in for vscode.WebviewPanel: what the webview would receive, and a way to speak for it. */
class FakePanel implements PanelPort {
  visible = true;
  delivered: HostToWebview[] = [];
  private onMessage: (m: unknown) => void = () => undefined;
  private onView: () => void = () => undefined;
  postMessage(m: HostToWebview): PromiseLike<boolean> {
    this.delivered.push(m);
    return Promise.resolve(true);
  }
  onDidReceiveMessage(l: (m: unknown) => void): { dispose(): void } {
    this.onMessage = l;
    return { dispose: () => undefined };
  }
  onDidChangeViewState(l: () => void): { dispose(): void } {
    this.onView = l;
    return { dispose: () => undefined };
  }
  fromWebview(m: unknown): void {
    this.onMessage(m);
  }
  setVisible(v: boolean): void {
    this.visible = v;
    this.onView();
  }
}

const subs = makeRun({ submissions: 3, episodes: 2 });
const snapshot = (n: number): HostToWebview => ({ type: 'dashboard.snapshot', envId: 'CartPole-v1', budget: null, submissions: subs.slice(0, n), report: null, activity: null });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function setup(): { panel: FakePanel; channel: PanelChannel; logs: string[]; actions: unknown[]; current: { n: number } } {
  const panel = new FakePanel();
  const logs: string[] = [];
  const actions: unknown[] = [];
  const current = { n: 1 };
  const log = { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`), error: (m: string) => logs.push(`error ${m}`) };
  const channel = new PanelChannel(panel, 'dashboard', log, async () => [snapshot(current.n)], (a) => actions.push(a));
  return { panel, channel, logs, actions, current };
}

describe('panel channel (host side)', () => {
  it('holds messages until ready, then sends a fresh snapshot and the deltas that came after it', async () => {
    const { panel, channel, current } = setup();
    channel.post(snapshot(1));
    channel.post({ type: 'dashboard.activity', activity: { submission: 2, done: 1, total: 2 } });
    assert.equal(panel.delivered.length, 0, 'nothing before ready');
    current.n = 2;
    panel.fromWebview({ type: 'ready', panel: 'dashboard' });
    await tick();
    assert.deepEqual(panel.delivered.map((m) => m.type), ['dashboard.snapshot', 'dashboard.activity']);
    assert.equal((panel.delivered[0] as { submissions: unknown[] }).submissions.length, 2, 'the snapshot read at ready, not the stale queued one');
    channel.post({ type: 'dashboard.submission', summary: subs[2]! });
    assert.equal(panel.delivered.at(-1)?.type, 'dashboard.submission', 'sent at once while ready and visible');
  });

  it('buffers while hidden (newest snapshot wins) and resends state when the reloaded webview is ready', async () => {
    const { panel, channel, current } = setup();
    panel.fromWebview({ type: 'ready', panel: 'dashboard' });
    await tick();
    panel.delivered = [];
    panel.setVisible(false);
    channel.post({ type: 'dashboard.submission', summary: subs[1]! });
    channel.post(snapshot(2));
    channel.post(snapshot(3));
    assert.equal(panel.delivered.length, 0, 'a hidden webview gets nothing (it would drop it)');
    panel.setVisible(true);
    current.n = 3;
    panel.fromWebview({ type: 'ready', panel: 'dashboard' });
    await tick();
    assert.deepEqual(panel.delivered.map((m) => m.type), ['dashboard.snapshot']);
    assert.equal((panel.delivered[0] as { submissions: unknown[] }).submissions.length, 3);
  });

  it('ignores malformed webview messages with a warning and passes valid requests on', async () => {
    const { panel, logs, actions } = setup();
    panel.fromWebview({ type: 'openSource', file: 'policy/policy.ts', line: 0 });
    panel.fromWebview('nonsense');
    panel.fromWebview({ type: 'log', level: 'error', message: 'ignored malformed message "x"' });
    panel.fromWebview({ type: 'openFeedback', submission: 2 });
    assert.deepEqual(actions, [{ type: 'openFeedback', submission: 2 }]);
    assert.equal(logs.filter((l) => l.startsWith('warn dashboard panel sent a malformed message')).length, 2);
    assert.ok(logs.includes('error dashboard panel: ignored malformed message "x"'), 'webview logs reach the host log');
  });
});
