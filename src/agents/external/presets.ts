/**
 * Named presets: the non-interactive invocation of widely used coding-agent CLIs, so
 * `policyforge run --agent codex` needs no command line. Each receives the task text on stdin
 * (and in `$POLICYFORGE_TASK_FILE`), finds `policyforge` on its PATH and the MCP server in the
 * project-level configuration its tool reads. The flags are those the tools document for
 * unattended runs; they are not exercised by our tests, since no such agent can run there.
 */

export interface AgentPreset {
  readonly name: string;
  /** Shell command line; `{taskFile}` is replaced by the quoted path of the task text. */
  readonly command: string;
  /** Environment variables the tool needs from the user's environment (its credentials). */
  readonly env: readonly string[];
  readonly note: string;
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    name: 'claude-code',
    command: 'claude -p --output-format stream-json --verbose --permission-mode bypassPermissions',
    env: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'],
    note: 'Claude Code in print mode; the prompt comes on stdin; it reads .mcp.json in the workspace',
  },
  {
    name: 'codex',
    command: 'codex exec --full-auto --skip-git-repo-check -',
    env: ['OPENAI_API_KEY', 'CODEX_HOME'],
    note: 'Codex CLI non-interactive (`-` reads the prompt from stdin); MCP from .codex/config.toml',
  },
  {
    name: 'gemini',
    command: 'gemini --yolo --prompt "$(cat {taskFile})"',
    env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT'],
    note: 'Gemini CLI with the prompt as an argument; MCP from .gemini/settings.json',
  },
  {
    name: 'aider',
    command: 'aider --yes-always --no-git --no-auto-commits --message-file {taskFile} policy/policy.ts',
    env: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'AIDER_MODEL'],
    note: 'aider edits policy/policy.ts from the task; it submits only by running `policyforge submit` as a shell command',
  },
];

export function findPreset(name: string): AgentPreset | undefined {
  return AGENT_PRESETS.find((p) => p.name === name);
}

/** Single-quoted for sh, so a path with spaces or `$` reaches the agent as one word. */
export function shellQuote(s: string): string {
  return process.platform === 'win32' ? `"${s.replace(/"/g, '""')}"` : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function expandCommand(command: string, vars: { taskFile: string }): string {
  return command.replace(/\{taskFile\}/g, shellQuote(vars.taskFile));
}
