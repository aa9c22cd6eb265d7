/**
 * Registers a command whose failures become one clear error message instead of an unhandled
 * rejection. The handler's value is returned to the caller (other extensions, tests, LM tools).
 */
import * as vscode from 'vscode';
import { RunClientError } from '../../runner';

export function errorText(e: unknown): string {
  if (e instanceof RunClientError) return `${e.message} (${e.reason})`;
  return e instanceof Error ? e.message : String(e);
}

export function registerCommand(id: string, handler: (...args: unknown[]) => unknown, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (e) {
      log.error(`${id}: ${errorText(e)}`);
      void vscode.window.showErrorMessage(`PolicyForge: ${errorText(e)}`);
      return undefined;
    }
  });
}
