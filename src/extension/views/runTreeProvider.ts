/** The Run view: maps the plain tree model (runTreeModel.ts) onto VS Code TreeItems. */
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import { episodeNodes, runNode, submissionNodes, type TreeNode } from './runTreeModel';
import { arenaChildNodes, arenaRunNode } from '../arena/arenaTree';

export class RunTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly session: RunSession) {
    this.subscription = session.onDidChange(() => this.changeEmitter.fire(undefined));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state = !node.expandable ? vscode.TreeItemCollapsibleState.None : node.kind === 'run' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    // Keys are stable across refreshes, so expansion state survives every repaint.
    item.id = node.key;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.contextValue = node.contextValue;
    if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    if (node.contextValue?.startsWith('arena')) item.command = { command: 'policyforge.openArena', title: 'Open Arena' };
    if (node.kind === 'episode') item.command = { command: 'policyforge.replayEpisode', title: 'Replay Episode', arguments: [node] };
    if (node.kind === 'message' && this.session.model?.runnerState === 'stopped') item.command = { command: 'policyforge.restartRunner', title: 'Restart Runner' };
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const model = this.session.model;
    if (!model) return [];
    if (!node) {
      if (!model.info || !model.status) {
        const starting = model.runnerState === 'stopped' ? 'Runner stopped — click to restart' : 'Starting the runner…';
        return [{ key: 'message', kind: 'message', label: starting, expandable: false, icon: { id: model.runnerState === 'stopped' ? 'warning' : 'loading~spin' } }];
      }
      return [model.arenaStatus ? arenaRunNode(model.info, model.arenaStatus) : runNode(model.info, model.status)];
    }
    if (node.kind === 'run' && model.arenaStatus) return arenaChildNodes(model.arenaStatus);
    if (node.kind === 'run' && model.status) return submissionNodes(model.status, model.summaries, model.report?.selected ?? null);
    if (node.kind === 'submission' && node.submission !== undefined) {
      const s = model.summary(node.submission);
      return s ? episodeNodes(s, model.status) : [];
    }
    return [];
  }

  /** Current top-level and submission rows (for the API and tests). */
  snapshot(): TreeNode[] {
    const top = this.getChildren();
    return top.flatMap((n) => [n, ...(n.kind === 'run' ? this.getChildren(n) : [])]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

export function registerRunTree(session: RunSession): { disposable: vscode.Disposable; provider: RunTreeProvider } {
  const provider = new RunTreeProvider(session);
  const view = vscode.window.createTreeView('policyforge.run', { treeDataProvider: provider, showCollapseAll: true });
  const sub = session.onDidChange(() => {
    const st = session.model?.status;
    view.description = st ? `${st.budget.remaining} left` : undefined;
  });
  return { disposable: vscode.Disposable.from(provider, view, sub), provider };
}
