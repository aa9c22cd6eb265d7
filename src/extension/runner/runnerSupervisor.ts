/**
 * Keeps one runner alive for one workspace: starts `dist/runnerProcess.js` as a child process
 * (VS Code's own runtime with ELECTRON_RUN_AS_NODE, or the `policyforge.nodePath` setting),
 * connects the typed client, streams the runner's log into the LogOutputChannel, and restarts it
 * with backoff when it dies, saying so. A runner that another client started (the CLI, a previous
 * window: runs outlive the editor) is attached to instead of started twice.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import { parseRunnerReadyLine } from '../../protocol/run';
import { processAlive, readRunnerFile, RunnerClient } from '../../runner';
import { RestartBackoff } from './backoff';

export type RunnerState = 'starting' | 'ready' | 'restarting' | 'stopped';

export interface SupervisorOptions {
  root: string;
  /** Absolute path of dist/runnerProcess.js. */
  runnerScript: string;
  log: vscode.LogOutputChannel;
  nodePath(): string | undefined;
  /** Extra environment of the runner process (settings the runner reads, e.g. POLICYFORGE_WORKERS). */
  env?(): Record<string, string>;
  /** Told about unexpected deaths and give-ups (a notification). */
  notify(message: string, severity: 'warning' | 'error' | 'info'): void;
  backoff?: RestartBackoff;
  readyTimeoutMs?: number;
}

/** One supervisor per workspace root in this extension host: the "never two runners" guarantee on our side; the runner's runner.json check is the other. */
const supervisors = new Map<string, RunnerSupervisor>();

export class RunnerSupervisor implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private clientValue: RunnerClient | undefined;
  private stateValue: RunnerState = 'stopped';
  private disposed = false;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private launching: Promise<RunnerClient> | undefined;
  private readonly backoff: RestartBackoff;
  private readonly stateEmitter = new vscode.EventEmitter<RunnerState>();
  private readonly clientEmitter = new vscode.EventEmitter<RunnerClient>();
  /** Fires on every state change. */
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fires with each new connection (first start, restarts, reattach). */
  readonly onDidConnect = this.clientEmitter.event;
  /** Restarts caused by a dying runner (not by the Restart Runner command). */
  unexpectedRestarts = 0;

  static for(options: SupervisorOptions): RunnerSupervisor {
    const existing = supervisors.get(options.root);
    if (existing && !existing.disposed) return existing;
    const s = new RunnerSupervisor(options);
    supervisors.set(options.root, s);
    return s;
  }

  private constructor(private readonly options: SupervisorOptions) {
    this.backoff = options.backoff ?? new RestartBackoff();
  }

  get state(): RunnerState {
    return this.stateValue;
  }

  /** The PolicyForge output channel the runner's log goes to. */
  get log(): vscode.LogOutputChannel {
    return this.options.log;
  }

  get client(): RunnerClient | undefined {
    return this.clientValue?.open ? this.clientValue : undefined;
  }

  /** Process id of the runner we are connected to (ours or attached). */
  get pid(): number | undefined {
    return this.child?.pid ?? readRunnerFile(this.options.root)?.pid;
  }

  /** The connected client, starting the runner if needed. */
  async ensureClient(): Promise<RunnerClient> {
    if (this.client) return this.client;
    if (this.disposed) throw new Error('the PolicyForge runner supervisor was disposed');
    if (!this.launching) {
      this.clearRestartTimer();
      this.launching = this.launch().finally(() => (this.launching = undefined));
    }
    return this.launching;
  }

  /** User-requested restart: stop ours (a runner we only attached to is left alone), start fresh. */
  async restart(): Promise<RunnerClient> {
    this.options.log.info('restart requested');
    this.clearRestartTimer();
    this.backoff.reset();
    await this.stopChild();
    await this.clientValue?.close().catch(() => undefined);
    this.clientValue = undefined;
    return this.ensureClient();
  }

  private setState(s: RunnerState): void {
    if (this.stateValue === s) return;
    this.stateValue = s;
    this.stateEmitter.fire(s);
  }

  private async launch(): Promise<RunnerClient> {
    this.setState(this.stateValue === 'restarting' ? 'restarting' : 'starting');
    const { root, log } = this.options;
    const existing = readRunnerFile(root);
    if (existing && existing.pid !== this.child?.pid && processAlive(existing.pid)) {
      try {
        const client = await RunnerClient.connect({ host: existing.host, port: existing.port, token: existing.token, timeoutMs: 3000 });
        log.info(`attached to the running runner (pid ${existing.pid}, port ${existing.port})`);
        return this.adopt(client);
      } catch (e) {
        log.warn(`runner.json names live pid ${existing.pid} but connecting failed (${String(e)}); starting a new runner`);
      }
    }
    const client = await this.spawnRunner();
    return this.adopt(client);
  }

  private adopt(client: RunnerClient): RunnerClient {
    this.clientValue = client;
    this.startedAt = Date.now();
    client.on('close', () => this.onConnectionLost(client));
    this.setState('ready');
    this.clientEmitter.fire(client);
    return client;
  }

  private spawnRunner(): Promise<RunnerClient> {
    const { root, runnerScript, log } = this.options;
    const node = this.options.nodePath()?.trim() || process.execPath;
    const env = { ...process.env, ...this.options.env?.(), ELECTRON_RUN_AS_NODE: '1' };
    log.info(`starting runner: ${node} ${runnerScript} --workspace ${root}`);
    const child = spawn(node, [runnerScript, '--workspace', root], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    return new Promise<RunnerClient>((resolve, reject) => {
      let settled = false;
      const timeout = setTimeout(() => fail(new Error(`the runner did not report ready within ${(this.options.readyTimeoutMs ?? 30_000) / 1000} s`)), this.options.readyTimeoutMs ?? 30_000);
      const fail = (e: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        reject(e);
      };
      readline.createInterface({ input: child.stderr! }).on('line', (line) => log.info(line));
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        const ready = parseRunnerReadyLine(line);
        if (ready === undefined) {
          log.info(line);
          return;
        }
        if (settled) return;
        const file = readRunnerFile(root);
        if (!file) return fail(new Error('the runner reported ready but wrote no .policyforge/runner.json'));
        if (file.port !== ready.port) return fail(new Error(`the runner reported port ${ready.port} but .policyforge/runner.json names ${file.port}`));
        RunnerClient.connect({ host: file.host, port: file.port, token: file.token }).then((client) => {
          if (settled) return void client.close();
          settled = true;
          clearTimeout(timeout);
          log.info(`runner ready (pid ${child.pid}, port ${file.port})`);
          resolve(client);
        }, (e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
      });
      child.on('error', (e) => fail(new Error(`cannot start the runner with ${node}: ${e.message}`)));
      child.on('exit', (code, signal) => {
        fail(new Error(`the runner exited before it was ready (${signal ?? `exit code ${code}`}); see the PolicyForge output`));
        this.onChildExit(child, code, signal);
      });
    });
  }

  private onChildExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child === child) this.child = undefined;
    const how = signal ?? `exit code ${code}`;
    this.options.log.warn(`runner (pid ${child.pid}) stopped: ${how}`);
  }

  private onConnectionLost(client: RunnerClient): void {
    if (this.clientValue !== client) return;
    this.clientValue = undefined;
    if (this.disposed) return;
    const uptime = Date.now() - this.startedAt;
    this.options.log.warn(`lost the runner connection after ${(uptime / 1000).toFixed(1)} s`);
    // A runner whose socket closed but whose process lingers is replaced, not left half-alive.
    void this.stopChild();
    this.scheduleRestart(uptime);
  }

  private scheduleRestart(uptimeMs: number): void {
    if (this.disposed) return;
    const delay = this.backoff.next(uptimeMs);
    if (delay === null) {
      this.setState('stopped');
      this.options.notify(`The PolicyForge runner keeps stopping (${this.backoff.attempts - 1} times in a row); it will not be restarted automatically. See the PolicyForge output, then run "PolicyForge: Restart Runner".`, 'error');
      return;
    }
    this.unexpectedRestarts++;
    this.setState('restarting');
    this.options.log.warn(`restarting the runner in ${delay} ms (attempt ${this.backoff.attempts})`);
    this.options.notify(`The PolicyForge runner stopped unexpectedly; restarting it (attempt ${this.backoff.attempts}).`, 'warning');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.ensureClient().then(
        () => this.options.notify('The PolicyForge runner is running again.', 'info'),
        (e: unknown) => {
          this.options.log.error(`restart failed: ${e instanceof Error ? e.message : String(e)}`);
          // A failed start counts as one more quick death.
          this.scheduleRestart(0);
        },
      );
    }, delay);
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private stopChild(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  dispose(): void {
    this.disposed = true;
    this.clearRestartTimer();
    if (supervisors.get(this.options.root) === this) supervisors.delete(this.options.root);
    const client = this.clientValue;
    this.clientValue = undefined;
    void client?.close().catch(() => undefined);
    // Our runner goes with the window; a run's state is on disk and the next window resumes it.
    void this.stopChild();
    this.stateEmitter.dispose();
    this.clientEmitter.dispose();
  }
}
