/**
 * Export of tables (CSV/JSON) and charts (PNG). A webview cannot write files or trigger
 * downloads, so the content goes to the host, which asks where to save it.
 */
import type { HostBridge } from './hostBridge';
import type { PanelState } from '../../src/protocol/webview';

type Bridge = HostBridge<PanelState>;

export type Cell = string | number | boolean | null;

/** RFC 4180 CSV: quotes fields with separators, quotes or line breaks. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const field = (v: Cell): string => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

export function exportCsv(bridge: Bridge, filename: string, header: readonly string[], rows: readonly (readonly Cell[])[]): void {
  bridge.post({ type: 'export', format: 'csv', filename, content: toCsv(header, rows), encoding: 'utf8' });
}

export function exportJson(bridge: Bridge, filename: string, value: unknown): void {
  bridge.post({ type: 'export', format: 'json', filename, content: `${JSON.stringify(value, null, 2)}\n`, encoding: 'utf8' });
}

export function exportCanvasPng(bridge: Bridge, filename: string, canvas: HTMLCanvasElement): void {
  const url = canvas.toDataURL('image/png');
  bridge.post({ type: 'export', format: 'png', filename, content: url.slice(url.indexOf(',') + 1), encoding: 'base64' });
}

export function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'export';
}
