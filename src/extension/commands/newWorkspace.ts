/**
 * New Policy Workspace: environment (quick pick with descriptions), budget, parameters (defaults
 * shown, each editable and validated), then the runner's own init (starter policy, env.d.ts,
 * AGENTS.md, frozen run.json). An empty open folder is used in place; otherwise the user picks a
 * folder and VS Code opens it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentsMd } from '../../agents/agentsMd';
import { policyforgeCommand } from '../../agents/cliCommand';
import { createRegistry } from '../../envs';
import type { EnvDefinition } from '../../envs/core/definition';
import type { EnvRegistry } from '../../envs/core/registry';
import { resolveParams, type ParamValue } from '../../envs/core/params';
import { initWorkspace } from '../../runner';
import type { RunSession } from '../run/runSession';
import type { ExtensionSettings } from '../settings';
import { registerCommand } from './registerCommand';
import { askSelection, describeSelection, type SelectionChoice } from './selectionPick';

export interface NewWorkspaceArgs {
  folder?: string;
  envId?: string;
  budget?: number;
  params?: Record<string, ParamValue>;
  /** The selection rule (as `init --selection/--gate-delta/--elite`); default: the settings'. */
  selection?: SelectionChoice;
  /** With `folder` outside the open workspace: create it without opening it (default true: open it). */
  openAfter?: boolean;
}

function isEmptyFolder(dir: string): boolean {
  try {
    return fs.readdirSync(dir).filter((f) => !f.startsWith('.')).length === 0;
  } catch {
    return false;
  }
}

async function pickEnvironment(registry: EnvRegistry): Promise<EnvDefinition | undefined> {
  const defs = registry.list();
  const picked = await vscode.window.showQuickPick(
    defs.map((d) => ({ label: d.id, description: d.family, detail: d.description, def: d })),
    { title: 'New Policy Workspace (1/3): environment', placeHolder: 'Pick the environment the policy will play', matchOnDescription: true, matchOnDetail: true, ignoreFocusOut: true },
  );
  return picked?.def;
}

async function askBudget(defaultBudget: number): Promise<number | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'New Policy Workspace (2/3): episode budget',
    prompt: 'Episodes the whole run may spend on training feedback (validation and held-out cases are free)',
    value: String(defaultBudget),
    ignoreFocusOut: true,
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 100_000 ? undefined : 'A whole number from 1 to 100000'),
  });
  return text === undefined ? undefined : Number(text.trim());
}

function parseParamText(text: string): ParamValue {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return t;
}

/**
 * Parameters and the selection rule: "accept" with the current values, or pick one to change;
 * loops until accepted.
 */
async function askParams(def: EnvDefinition, selection: SelectionChoice): Promise<{ params: Record<string, ParamValue>; selection: SelectionChoice } | undefined> {
  const values: Record<string, ParamValue> = { ...resolveParams(def.id, def.params) };
  const SELECTION = '\0selection';
  for (;;) {
    const accept = { label: '$(check) Create the workspace with these parameters', name: undefined as string | undefined };
    const rule = { label: `$(filter) selection: ${describeSelection(selection)}`, detail: 'How the run picks the submission it assesses (mode, gate Δ, elite re-evaluation)', name: SELECTION };
    const items = [accept, ...Object.entries(def.params).map(([name, spec]) => ({ label: `${name} = ${String(values[name])}`, description: spec.default === values[name] ? 'default' : `default ${String(spec.default)}`, detail: spec.description, name })), rule];
    const picked = await vscode.window.showQuickPick(items, { title: `New Policy Workspace (3/3): parameters of ${def.id}`, placeHolder: 'Accept, or pick a parameter or the selection rule to change', ignoreFocusOut: true });
    if (!picked) return undefined;
    if (!picked.name) return { params: values, selection };
    if (picked.name === SELECTION) {
      selection = (await askSelection(selection, `New Policy Workspace: ${def.id}`)) ?? selection;
      continue;
    }
    const name = picked.name;
    const spec = def.params[name];
    const text = await vscode.window.showInputBox({
      title: `${def.id}: ${name}`,
      prompt: spec?.description,
      value: String(values[name]),
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          resolveParams(def.id, def.params, { ...values, [name]: parseParamText(v) });
          return undefined;
        } catch (e) {
          return e instanceof Error ? e.message : String(e);
        }
      },
    });
    if (text !== undefined) values[name] = parseParamText(text);
  }
}

export function registerNewWorkspaceCommand(session: RunSession, settings: ExtensionSettings, pluginPaths: () => string[], log: vscode.LogOutputChannel): vscode.Disposable {
  return registerCommand('policyforge.newWorkspace', async (raw?: unknown) => {
    const args = (raw && typeof raw === 'object' ? raw : {}) as NewWorkspaceArgs;
    const open = vscode.workspace.workspaceFolders?.[0]?.uri;
    let folder = args.folder;
    if (!folder && open?.scheme === 'file' && !hasRunIn(open.fsPath) && isEmptyFolder(open.fsPath)) folder = open.fsPath;
    if (!folder) {
      const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Create Policy Workspace Here', title: 'New Policy Workspace: pick an empty folder' });
      if (!picked?.[0]) return undefined;
      folder = picked[0].fsPath;
    }
    const registry = createRegistry();
    const plugins = pluginPaths();
    for (const p of plugins) {
      const r = registry.loadPlugin(p);
      if (!r.ok) void vscode.window.showWarningMessage(`PolicyForge: environment plugin ${p} did not load: ${r.error.message}`);
    }
    const def = args.envId ? registry.get(args.envId) : await pickEnvironment(registry);
    if (!def) return undefined;
    const budget = args.budget ?? (await askBudget(settings.defaultBudget()));
    if (budget === undefined) return undefined;
    const defaults = settings.runConfigDefaults();
    const fromSettings: SelectionChoice = { selectionMode: defaults.selectionMode, ...(defaults.gateDelta !== undefined ? { gateDelta: defaults.gateDelta } : {}) };
    const asked = args.params ? { params: args.params, selection: args.selection ?? fromSettings } : await askParams(def, args.selection ?? fromSettings);
    if (!asked) return undefined;
    const { params, selection } = asked;
    const { gateDelta: _settingsDelta, ...runDefaults } = defaults;
    const result = initWorkspace(folder, { envId: def.id, params, budget, ...runDefaults, ...selection, plugins }, registry, { extraFiles: (d, config) => ({ 'AGENTS.md': agentsMd(d, config, policyforgeCommand()) }) });
    if (!result.ok) throw new Error(result.error);
    log.info(`created a ${def.id} run in ${folder} (budget ${budget}, selection ${describeSelection(selection)})`);
    const inPlace = open?.scheme === 'file' && path.resolve(open.fsPath) === path.resolve(folder);
    if (!inPlace) {
      if (args.openAfter !== false) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder), { forceNewWindow: false });
      return folder;
    }
    await session.open(folder);
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, 'policy', 'policy.ts')));
    return folder;
  }, log);
}

function hasRunIn(dir: string): boolean {
  return fs.existsSync(path.join(dir, '.policyforge', 'run.json'));
}
