/**
 * One panel of a kind per window: created on demand, revealed when it exists, and restored by
 * VS Code's WebviewPanelSerializer after a reload (the webview's saved state comes back with it).
 */
import * as vscode from 'vscode';
import { PANEL_VIEW_TYPES, type HostToWebview, type PanelKind } from '../../protocol/webview';
import type { PanelLog } from './deps';
import { panelHtml, panelOptions } from './html';
import type { PanelAction } from './panelActions';
import { PanelChannel } from './panelChannel';

export interface SingletonPanelOptions {
  kind: PanelKind;
  title: string;
  extensionUri: vscode.Uri;
  log: PanelLog;
  snapshot(): Promise<HostToWebview[]>;
  onAction(a: PanelAction): void;
}

export class SingletonPanel implements vscode.Disposable {
  private channel: PanelChannel | undefined;
  private webviewPanel: vscode.WebviewPanel | undefined;

  constructor(private readonly o: SingletonPanelOptions) {}

  get isOpen(): boolean {
    return this.channel !== undefined;
  }

  show(column = vscode.ViewColumn.Active): void {
    if (this.webviewPanel) {
      this.webviewPanel.reveal(column);
      return;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPES[this.o.kind], this.o.title, column, panelOptions(this.o.extensionUri));
    this.adopt(panel);
  }

  /** Takes over a panel VS Code restored after a reload. */
  adopt(panel: vscode.WebviewPanel): void {
    this.webviewPanel?.dispose();
    panel.webview.options = panelOptions(this.o.extensionUri);
    panel.title = this.o.title;
    panel.iconPath = vscode.Uri.joinPath(this.o.extensionUri, 'media', 'extension', 'policyforge.svg');
    panel.webview.html = panelHtml(panel.webview, this.o.extensionUri, this.o.kind, this.o.title);
    const port = {
      get visible() { return panel.visible; },
      postMessage: (m: HostToWebview) => panel.webview.postMessage(m),
      onDidReceiveMessage: (l: (m: unknown) => void) => panel.webview.onDidReceiveMessage(l),
      onDidChangeViewState: (l: () => void) => panel.onDidChangeViewState(() => l()),
    };
    const channel = new PanelChannel(port, this.o.kind, this.o.log, () => this.o.snapshot(), (a) => this.o.onAction(a));
    this.channel = channel;
    this.webviewPanel = panel;
    panel.onDidDispose(() => {
      channel.dispose();
      if (this.channel === channel) {
        this.channel = undefined;
        this.webviewPanel = undefined;
      }
    });
  }

  post(message: HostToWebview): void {
    this.channel?.post(message);
  }

  setTitle(title: string): void {
    if (this.webviewPanel) this.webviewPanel.title = title;
  }

  serializer(restore?: (state: unknown) => void): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        restore?.(state);
        this.adopt(panel);
      },
    };
  }

  dispose(): void {
    this.webviewPanel?.dispose();
  }
}
