/**
 * The one colour of each edit class, as a VS Code theme colour id, so a class reads the same in
 * the run tree (ThemeIcon colours), the dashboard and the diagnostics (webview CSS variables and
 * canvas charts). Theme colour ids follow the user's theme, light, dark or high contrast alike.
 */
import type { EditClass } from './feedback';

export const EDIT_CLASS_THEME_COLORS: Readonly<Record<EditClass, string>> = {
  initial: 'charts.blue',
  identical: 'disabledForeground',
  parametric: 'charts.orange',
  structural: 'charts.purple',
};

/** The CSS variable a webview gets for a theme colour id: `charts.blue` → `--vscode-charts-blue`. */
export function themeColorVariable(id: string): string {
  return `--vscode-${id.replace(/\./g, '-')}`;
}
