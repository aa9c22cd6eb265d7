/** Webview options and HTML for a panel: resources only from dist/webview, through asWebviewUri. */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { PanelKind } from '../../protocol/webview';
import { renderPanelHtml } from './htmlDocument';

export function webviewFolder(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [webviewFolder(extensionUri)],
    // The panels restore from state and a fresh snapshot; no need to keep a hidden DOM alive.
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, panel: PanelKind, title: string): string {
  const folder = webviewFolder(extensionUri);
  const css = vscode.Uri.joinPath(folder, `${panel}.css`);
  return renderPanelHtml({
    panel,
    title,
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(folder, `${panel}.js`)).toString(),
    styleUri: fs.existsSync(css.fsPath) ? webview.asWebviewUri(css).toString() : undefined,
  });
}
