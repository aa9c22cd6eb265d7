/**
 * The host end of one panel's message channel: validates what the webview sends, holds outgoing
 * messages until the webview said `ready` and while the panel is hidden (a hidden webview with
 * retainContextWhenHidden=false drops messages and reloads when shown), and asks for a fresh
 * snapshot on every `ready` so a reloaded webview starts from the current run.
 */
import { checkWebviewMessage, type HostToWebview, type PanelKind, type WebviewToHost } from '../../protocol/webview';
import type { PanelLog } from './deps';

interface Disposable {
  dispose(): void;
}

/** The part of a vscode.WebviewPanel the channel uses (kept structural so it is unit-tested without VS Code). */
export interface PanelPort {
  readonly visible: boolean;
  postMessage(message: HostToWebview): PromiseLike<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => void): Disposable;
  onDidChangeViewState(listener: () => void): Disposable;
}

/** Message types where only the newest matters: a newer one replaces queued older ones. */
const LATEST_WINS = new Set<HostToWebview['type']>(['dashboard.snapshot', 'diagnostics.snapshot', 'replay.load', 'dashboard.activity']);

export class PanelChannel implements Disposable {
  private ready = false;
  private queue: HostToWebview[] = [];
  private readonly disposables: Disposable[] = [];

  constructor(
    readonly panel: PanelPort,
    readonly kind: PanelKind,
    private readonly log: PanelLog,
    /** Called on every `ready`: returns the full state to send first. */
    private readonly snapshot: () => Promise<HostToWebview[]>,
    private readonly onAction: (m: Exclude<WebviewToHost, { type: 'ready' | 'log' }>) => void,
  ) {
    this.disposables.push(
      panel.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidChangeViewState(() => {
        // Hidden → the webview is torn down; it will say `ready` again when shown.
        if (!panel.visible) this.ready = false;
      }),
    );
  }

  /** Sends now when the webview listens, otherwise queues (newest snapshot wins). */
  post(message: HostToWebview): void {
    if (this.ready && this.panel.visible) {
      void this.panel.postMessage(message);
      return;
    }
    if (LATEST_WINS.has(message.type)) {
      // A snapshot supersedes everything queued before it of the same kind, and the live deltas it includes.
      this.queue = this.queue.filter((q) => q.type !== message.type && !(message.type === 'dashboard.snapshot' && q.type === 'dashboard.submission'));
    }
    this.queue.push(message);
    if (this.queue.length > 500) this.queue.splice(0, this.queue.length - 500);
  }

  private receive(raw: unknown): void {
    const checked = checkWebviewMessage(raw);
    if (!checked.ok) {
      this.log.warn(`${this.kind} panel sent a malformed message, ignored: ${checked.error}`);
      return;
    }
    const m = checked.value;
    switch (m.type) {
      case 'ready':
        void this.onReady();
        return;
      case 'log':
        this.log[m.level](`${this.kind} panel: ${m.message}`);
        return;
      default:
        this.onAction(m);
    }
  }

  /** True once the webview said `ready` and got its snapshot, until it is hidden. */
  get isReady(): boolean {
    return this.ready;
  }

  private async onReady(): Promise<void> {
    let first: HostToWebview[] = [];
    try {
      first = await this.snapshot();
    } catch (e) {
      first = [{ type: 'host.error', message: `Could not read the run: ${e instanceof Error ? e.message : String(e)}` }];
    }
    // A queued snapshot is older than the one just read; queued deltas after it may still be news.
    const pending = this.queue.filter((q) => !first.some((f) => f.type === q.type) && !(q.type === 'dashboard.submission' && first.some((f) => f.type === 'dashboard.snapshot')));
    this.queue = [];
    this.ready = true;
    for (const m of [...first, ...pending]) void this.panel.postMessage(m);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
