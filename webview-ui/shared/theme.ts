/**
 * Colours from VS Code's theme variables (light, dark, high contrast). Canvas drawing (charts,
 * replay scenes) cannot use CSS variables directly, so they are resolved here and re-resolved
 * when VS Code switches theme (it changes the body class and the variables on <html>).
 */
import { EDIT_CLASS_THEME_COLORS, themeColorVariable } from '../../src/protocol/editClassPalette';
import type { EditClass } from '../../src/protocol/feedback';

export interface ThemeColors {
  kind: 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';
  foreground: string;
  muted: string;
  background: string;
  grid: string;
  border: string;
  accent: string;
  red: string;
  green: string;
  blue: string;
  yellow: string;
  orange: string;
  purple: string;
  font: string;
  /** The edit-class palette (src/protocol/editClassPalette.ts) resolved in this theme. */
  editClasses: Record<EditClass, string>;
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
    || getComputedStyle(document.body).getPropertyValue(name).trim();
  return v === '' ? fallback : v;
}

export function themeKind(): ThemeColors['kind'] {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (c.contains('vscode-high-contrast')) return 'high-contrast';
  return c.contains('vscode-dark') ? 'dark' : 'light';
}

let cached: ThemeColors | null = null;

/** The theme's colours, cached: getComputedStyle after a large DOM update forces a style recalc. */
export function readTheme(): ThemeColors {
  cached ??= resolveTheme();
  return cached;
}

function resolveTheme(): ThemeColors {
  const kind = themeKind();
  const dark = kind === 'dark' || kind === 'high-contrast';
  return {
    kind,
    foreground: cssVar('--vscode-editor-foreground', dark ? '#cccccc' : '#3b3b3b'),
    muted: cssVar('--vscode-descriptionForeground', dark ? '#9d9d9d' : '#717171'),
    background: cssVar('--vscode-editor-background', dark ? '#1f1f1f' : '#ffffff'),
    grid: cssVar('--vscode-charts-lines', dark ? 'rgba(204,204,204,0.18)' : 'rgba(59,59,59,0.14)'),
    border: cssVar('--vscode-panel-border', dark ? '#2b2b2b' : '#e5e5e5'),
    accent: cssVar('--vscode-focusBorder', '#0078d4'),
    red: cssVar('--vscode-charts-red', dark ? '#f14c4c' : '#e51400'),
    green: cssVar('--vscode-charts-green', dark ? '#89d185' : '#388a34'),
    blue: cssVar('--vscode-charts-blue', dark ? '#3794ff' : '#1a85ff'),
    yellow: cssVar('--vscode-charts-yellow', dark ? '#cca700' : '#bf8803'),
    orange: cssVar('--vscode-charts-orange', dark ? '#d18616' : '#d18616'),
    purple: cssVar('--vscode-charts-purple', dark ? '#b180d7' : '#652d90'),
    font: cssVar('--vscode-font-family', 'system-ui, sans-serif'),
    editClasses: resolvePalette(dark),
  };
}

/** Defaults of the palette's theme colours (VS Code's Dark/Light Modern), for hosts that omit one. */
const PALETTE_FALLBACK: Readonly<Record<string, readonly [light: string, dark: string]>> = {
  'charts.blue': ['#1a85ff', '#3794ff'],
  'charts.orange': ['#d18616', '#d18616'],
  'charts.purple': ['#652d90', '#b180d7'],
  disabledForeground: ['#61616180', '#cccccc80'],
};

function paletteFallback(id: string, dark: boolean): string {
  const f = PALETTE_FALLBACK[id];
  return f === undefined ? (dark ? '#cccccc' : '#3b3b3b') : f[dark ? 1 : 0];
}

function resolvePalette(dark: boolean): Record<EditClass, string> {
  const out = {} as Record<EditClass, string>;
  for (const [c, id] of Object.entries(EDIT_CLASS_THEME_COLORS) as [EditClass, string][]) out[c] = cssVar(themeColorVariable(id), paletteFallback(id, dark));
  return out;
}

/** `var(--vscode-charts-orange, #d18616)`: an edit class's colour for CSS, following theme switches by itself. */
export function editClassCssColor(c: EditClass): string {
  const id = EDIT_CLASS_THEME_COLORS[c];
  return `var(${themeColorVariable(id)}, ${paletteFallback(id, themeKind() === 'dark' || themeKind() === 'high-contrast')})`;
}

/** One colour per edit class, used by every chart and badge so they read the same everywhere. */
export function editClassColor(t: ThemeColors, c: EditClass | 'unknown'): string {
  return c === 'unknown' ? t.foreground : t.editClasses[c];
}

/** Calls `fn` after VS Code switches theme. */
export function onThemeChange(fn: () => void): void {
  let last = document.body.className + (document.documentElement.getAttribute('style') ?? '');
  const check = (): void => {
    const now = document.body.className + (document.documentElement.getAttribute('style') ?? '');
    if (now !== last) {
      last = now;
      cached = null;
      fn();
    }
  };
  const mo = new MutationObserver(check);
  mo.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
}
