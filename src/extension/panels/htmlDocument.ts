/**
 * The one place that writes a panel's HTML and its Content Security Policy. Pure (no `vscode`
 * import) so the browser tests load the panels under exactly the CSP VS Code gets.
 *
 * CSP: nothing by default; scripts only with this document's nonce; styles, fonts and images
 * only from the webview resource origin (`cspSource`, i.e. the built webview folder mapped by
 * asWebviewUri) — no inline styles or scripts. `img-src data:`/`blob:` lets charts be exported.
 */
import { randomBytes } from 'node:crypto';
import type { PanelKind } from '../../protocol/webview';

export interface PanelDocument {
  panel: PanelKind;
  title: string;
  /** webview.cspSource */
  cspSource: string;
  /** URI of dist/webview/<panel>.js as the webview sees it. */
  scriptUri: string;
  /** URI of dist/webview/<panel>.css, when the bundle emitted one. */
  styleUri?: string;
  nonce?: string;
}

/** 128 random bits, base64: a fresh nonce per document. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data: blob:`,
  ].join('; ');
}

export function renderPanelHtml(doc: PanelDocument): string {
  const nonce = doc.nonce ?? createNonce();
  const style = doc.styleUri ? `\n  <link rel="stylesheet" href="${attr(doc.styleUri)}">` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(doc.cspSource, nonce))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>${text(doc.title)}</title>${style}
</head>
<body data-panel="${doc.panel}">
  <script nonce="${attr(nonce)}" src="${attr(doc.scriptUri)}"></script>
</body>
</html>
`;
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
