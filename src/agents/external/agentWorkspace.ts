/**
 * Preparing a run workspace for an external coding agent: the task text, a `policyforge` on its
 * PATH, the MCP server in the project-level configuration files common agents read, and the
 * clean environment it starts with.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launcherPath } from '../cliCommand';
import { agentDir } from '../agentRecord';

/** The short prompt in front of AGENTS.md. */
export function taskText(workspace: string, agentsMd: string): string {
  return `You are a coding agent working in the PolicyForge run workspace ${workspace} (your current folder).
Your task is in AGENTS.md, repeated below. Edit the files under policy/, submit with \`policyforge submit\`
(or the \`submit\` tool of the \`policyforge\` MCP server), read the feedback, and improve the policy until
the episode budget is spent or you run \`policyforge finish\`. Work without asking questions: nobody is
there to answer them.

${agentsMd}`;
}

export interface PreparedAgent {
  /** Folder holding the `policyforge` shim, first on the agent's PATH. */
  binDir: string;
  taskFile: string;
  /** Configuration files written (workspace-relative). */
  mcpConfigs: string[];
}

/**
 * Writes the task file, the shim and the MCP configurations. Existing configuration files keep
 * their other servers: only the `policyforge` entry is set.
 */
export function prepareAgentWorkspace(workspace: string, task: string, launcher = launcherPath()): PreparedAgent {
  if (!launcher) throw new Error('cannot find bin/policyforge.js of this installation, so the agent would have no `policyforge` command');
  const dir = agentDir(workspace);
  const binDir = path.join(dir, 'bin');
  fs.mkdirSync(binDir, { recursive: true });
  const taskFile = path.join(dir, 'task.md');
  fs.writeFileSync(taskFile, task);
  writeShim(binDir, launcher);
  const server = { command: process.execPath, args: [launcher, 'mcp', '--dir', workspace] };
  const mcpConfigs = [
    mergeJson(workspace, '.mcp.json', 'mcpServers', { type: 'stdio', ...server }),
    mergeJson(workspace, path.join('.vscode', 'mcp.json'), 'servers', { type: 'stdio', ...server }),
    mergeJson(workspace, path.join('.gemini', 'settings.json'), 'mcpServers', server),
    writeCodexToml(workspace, server),
  ];
  return { binDir, taskFile, mcpConfigs };
}

function writeShim(binDir: string, launcher: string): void {
  if (process.platform === 'win32') {
    fs.writeFileSync(path.join(binDir, 'policyforge.cmd'), `@"${process.execPath}" "${launcher}" %*\r\n`);
    return;
  }
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const file = path.join(binDir, 'policyforge');
  fs.writeFileSync(file, `#!/bin/sh\nexec ${q(process.execPath)} ${q(launcher)} "$@"\n`);
  fs.chmodSync(file, 0o755);
}

function mergeJson(workspace: string, rel: string, key: string, entry: Record<string, unknown>): string {
  const file = path.join(workspace, rel);
  let doc: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
  } catch {
    // absent or unreadable: written fresh
  }
  const servers = doc[key] && typeof doc[key] === 'object' ? (doc[key] as Record<string, unknown>) : {};
  doc[key] = { ...servers, policyforge: entry };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return rel;
}

function writeCodexToml(workspace: string, server: { command: string; args: string[] }): string {
  const rel = path.join('.codex', 'config.toml');
  const file = path.join(workspace, rel);
  const str = (s: string): string => JSON.stringify(s); // a TOML basic string has JSON's escapes
  const section = `[mcp_servers.policyforge]\ncommand = ${str(server.command)}\nargs = [${server.args.map(str).join(', ')}]\n`;
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // absent
  }
  // Replace our own section (up to the next table header), keep everything else.
  const without = text.replace(/^\[mcp_servers\.policyforge\]\n(?:(?!\[).*\n?)*/m, '');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${without}${without && !without.endsWith('\n') ? '\n' : ''}${without ? '\n' : ''}${section}`);
  return rel;
}

/**
 * Variables every agent keeps: what a program needs to find its tools, home and locale. Nothing
 * else of the launcher's environment reaches the agent unless named (`--agent-env`).
 */
export const BASE_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LC_ALL', 'TERM', 'SystemRoot', 'ComSpec', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA'];

export function agentEnv(
  source: NodeJS.ProcessEnv,
  allowed: readonly string[],
  extra: Record<string, string>,
  binDir: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...allowed]) {
    const v = source[name];
    if (v !== undefined) env[name] = v;
  }
  env.PATH = [binDir, env.PATH].filter(Boolean).join(path.delimiter);
  return { ...env, ...extra };
}
