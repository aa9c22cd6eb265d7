/**
 * Offers `policyforge mcp` (the MCP stdio server over the same runner) to VS Code's MCP support.
 * The provider API arrived after 1.100 (1.100 wants the `modelContextServerCollections`
 * contribution, 1.101+ `mcpServerDefinitionProviders`; package.json declares both), and
 * engines.vscode stays ^1.100.0: everything here is feature-detected and a failure only logs.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';

interface McpStdioServerDefinitionCtor {
  new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string): { cwd?: vscode.Uri };
}
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[] }): vscode.Disposable;
}

export function mcpAvailable(): boolean {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const ctor = (vscode as unknown as { McpStdioServerDefinition?: unknown }).McpStdioServerDefinition;
  return typeof lm.registerMcpServerDefinitionProvider === 'function' && typeof ctor === 'function';
}

export function registerMcpProvider(session: RunSession, extensionPath: string, version: string, log: vscode.LogOutputChannel): vscode.Disposable {
  if (!mcpAvailable()) return new vscode.Disposable(() => undefined);
  const lm = vscode.lm as unknown as McpApi;
  const Ctor = (vscode as unknown as { McpStdioServerDefinition: McpStdioServerDefinitionCtor }).McpStdioServerDefinition;
  const changed = new vscode.EventEmitter<void>();
  const provider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const root = session.model?.root;
      if (!root) return [];
      const def = new Ctor('PolicyForge', process.execPath, [path.join(extensionPath, 'bin', 'policyforge.js'), 'mcp'], { ELECTRON_RUN_AS_NODE: '1' }, version);
      def.cwd = vscode.Uri.file(root);
      return [def];
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = lm.registerMcpServerDefinitionProvider('policyforge.mcp', provider);
  } catch (e) {
    // 1.100 shipped this API under another contribution point name; an MCP-less editor still gets the rest.
    log.warn(`MCP server definition provider not registered: ${e instanceof Error ? e.message : String(e)}`);
    changed.dispose();
    return new vscode.Disposable(() => undefined);
  }
  let hadRun = session.model !== undefined;
  return vscode.Disposable.from(
    changed,
    registration,
    session.onDidChange(() => {
      if ((session.model !== undefined) !== hadRun) {
        hadRun = session.model !== undefined;
        changed.fire();
      }
    }),
  );
}
