/**
 * Confirmation before an irreversible action (restore over policy/, finishing a run): a modal
 * dialog, as VS Code does for destructive actions. Under an extension test run VS Code refuses
 * every modal dialog ("refused to show dialog in tests"), so there the same question is a
 * warning notification with the same button: the flow (nothing happens until the user agrees)
 * stays the one users get, and the integration suite can answer it through the real UI.
 */
import * as vscode from 'vscode';

let testMode = false;

export function setConfirmTestMode(enabled: boolean): void {
  testMode = enabled;
}

export async function confirmAction(message: string, detail: string, action: string): Promise<boolean> {
  const answer = testMode ? await vscode.window.showWarningMessage(`${message} ${detail}`, action, 'Cancel') : await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
  return answer === action;
}
