/** Status bar item: budget left and best train mean, live; click opens the dashboard. */
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { statusBarView } from './statusText';
import { arenaStatusBarView } from '../arena/arenaStatusBar';

export function registerBudgetStatusBar(session: RunSession): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('policyforge.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'PolicyForge Budget';
  item.command = 'policyforge.showDashboard';
  const paint = (): void => {
    const m = session.model;
    if (!m) return item.hide();
    const v = m.arenaStatus ? arenaStatusBarView(m.info?.envId ?? 'run', m.arenaStatus) : statusBarView(m.info?.envId ?? 'run', m.status, m.runnerState);
    item.command = m.arenaStatus ? 'policyforge.openArena' : 'policyforge.showDashboard';
    item.text = v.text;
    item.tooltip = v.tooltip;
    item.accessibilityInformation = { label: v.tooltip.replace(/\$\([^)]*\)\s*/g, '') };
    item.backgroundColor = m.runnerState === 'stopped' ? new vscode.ThemeColor('statusBarItem.errorBackground') : m.status && m.status.budget.remaining === 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  paint();
  return vscode.Disposable.from(item, session.onDidChange(paint));
}
