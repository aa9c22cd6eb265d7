/**
 * Composition root of the PolicyForge extension: creates the run session and wires each feature
 * to it. Nothing here decides anything; each feature lives in its own folder.
 */
import * as vscode from 'vscode';
import { createApi, PluginRegistry, type PolicyForgeApi } from './api/api';
import { registerLmAgentCommands } from './agent/lmAgentCommands';
import { registerAttributionDecorations } from './attribution/attributionDecorations';
import { registerCheckpointContent } from './checkpoints/checkpointContent';
import { registerPolicyCodeLens } from './codelens/policyCodeLens';
import { registerCheckpointCommands } from './commands/checkpointCommands';
import { registerFeedbackCommands } from './commands/feedbackCommands';
import { registerNewWorkspaceCommand } from './commands/newWorkspace';
import { familyResolver, registerPanelCommands } from './commands/panelCommands';
import { registerRunnerCommands } from './commands/runnerCommands';
import { registerSubmitCommands } from './commands/submitCommands';
import { registerPracticeCommand } from './commands/practiceCommand';
import { registerPolicyDiagnostics } from './diagnostics/policyDiagnostics';
import { registerLiteralHover } from './hovers/literalHover';
import { registerLeaderboard } from './leaderboard/leaderboardPanel';
import { registerRunTools } from './lmTools/runTools';
import { registerArenaCommands } from './arena/arenaCommands';
import { registerMcpProvider } from './mcp/mcpProvider';
import { registerPanels } from './panels';
import { registerArenaPanel } from './panels/arenaPanel';
import { RunSession } from './run/runSession';
import { settings } from './settings';
import { setConfirmTestMode } from './shared/confirm';
import { registerBudgetStatusBar } from './statusBar/budgetStatusBar';
import { registerRunTree } from './views/runTreeProvider';

export type { PolicyForgeApi } from './api/api';

export function activate(context: vscode.ExtensionContext): PolicyForgeApi {
  const log = vscode.window.createOutputChannel('PolicyForge', { log: true });
  setConfirmTestMode(context.extensionMode === vscode.ExtensionMode.Test);
  const session = new RunSession(context.extensionPath, log, settings);
  const plugins = new PluginRegistry(() => settings.pluginPaths(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath));
  const { api, disposable: apiDisposable } = createApi(session, plugins);
  const tree = registerRunTree(session);
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const panels = registerPanels(context, {
    workspaceRoot: () => session.model?.root,
    events: api,
    familyOf: familyResolver(() => plugins.all()),
    openDiff: (submission) => vscode.commands.executeCommand('policyforge.compareWithCheckpoint', { submission }),
    // Inside the dashboard the overview is already on screen: its Feedback link opens the file.
    openFeedback: (submission) => vscode.commands.executeCommand('policyforge.openFeedbackFile', { submission }),
    log,
  });
  registerArenaPanel(context, { workspaceRoot: () => session.model?.root ?? RunSession.findRunRoot(), showReplay: (t) => panels.showReplay(t), log });

  context.subscriptions.push(
    log,
    session,
    apiDisposable,
    tree.disposable,
    registerBudgetStatusBar(session),
    registerPolicyCodeLens(session, settings),
    registerPolicyDiagnostics(session),
    registerAttributionDecorations(session),
    registerLiteralHover(session),
    registerCheckpointContent(session),
    registerNewWorkspaceCommand(session, settings, () => plugins.all(), log),
    registerSubmitCommands(session, settings, log),
    registerPracticeCommand(session, settings, log),
    registerCheckpointCommands(session, log),
    registerFeedbackCommands(session, log),
    registerRunnerCommands(session, log),
    registerPanelCommands(session, panels, log),
    registerRunTools(session),
    registerArenaCommands(session, log),
    registerLmAgentCommands(session, log),
    registerMcpProvider(session, context.extensionPath, version, log),
    registerLeaderboard(context, { pluginPaths: () => plugins.all(), log }),
  );

  const root = RunSession.findRunRoot();
  if (root && vscode.workspace.getConfiguration('policyforge').get<boolean>('runner.autoStart', true)) void session.open(root);
  else void vscode.commands.executeCommand('setContext', 'policyforge.hasRun', false);
  return api;
}

export function deactivate(): void {
  // Disposables in context.subscriptions stop the runner this window started.
}
