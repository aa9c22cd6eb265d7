/**
 * The runner's handle on its TypeScript tools (tools.ts): in a child process (`dist/tsTools.js`,
 * beside the runner's own bundle) started on the first call and stopped after IDLE_MS without
 * one, so the compiler's memory is held only around submits. A child that dies fails the calls
 * in flight (their callers report "no edit summary" or no type errors, as for any failure) and
 * the next call starts another. Without the built script (the sources run through tsx), the
 * tools run in this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { inProcessTools, type TsToolMethod, type TsTools } from './tools';

/** Long enough to span a submit's type check, its episodes and its edit analysis. */
const IDLE_MS = 60_000;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export class ChildTools {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly script: string,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** The child's pid while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get tools(): TsTools {
    const call = <M extends TsToolMethod>(method: M): TsTools[M] => ((...args: unknown[]) => this.call(method, args)) as unknown as TsTools[M];
    return { typeCheck: call('typeCheck'), editSummary: call('editSummary'), diagnostics: call('diagnostics'), warmUp: call('warmUp') };
  }

  call(method: TsToolMethod, args: unknown[]): Promise<unknown> {
    const child = this.start();
    const id = this.nextId++;
    clearTimeout(this.idle);
    // A call in flight keeps this process alive until it answers (see armIdle).
    child.ref();
    child.channel?.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ id, method, args });
    });
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    // The child's own flags: a small young generation (the compiler's garbage is short-lived).
    const child = fork(this.script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--max-semi-space-size=1'] });
    child.on('message', (m: Reply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
      if (this.pending.size === 0) this.armIdle();
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      clearTimeout(this.idle);
      for (const p of this.pending.values()) p.reject(new Error(`the TypeScript tools process exited (${signal ?? `code ${code}`})`));
      this.pending.clear();
    });
    child.on('error', () => undefined); // 'exit' follows and fails the calls.
    this.child = child;
    return child;
  }

  /**
   * No call in flight: the child may go (after IDLE_MS), and it must not keep this process
   * alive meanwhile, or a short-lived host (a headless `policyforge run`) would wait out the
   * idle time before it could exit. Its 'exit' handler then disconnects the child.
   */
  private armIdle(): void {
    this.child?.unref();
    this.child?.channel?.unref();
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), this.idleMs);
    this.idle.unref();
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    if (child?.connected) child.disconnect();
  }
}

let shared: TsTools | undefined;

/** The tools, in a child process when `dist/tsTools.js` sits beside this code (the built runner). */
export function tsTools(from: string = __dirname): TsTools {
  if (shared) return shared;
  const script = path.join(from, 'tsTools.js');
  if (!existsSync(script)) return (shared = inProcessTools);
  const child = new ChildTools(script);
  // The child must not outlive the runner.
  process.once('exit', () => child.stop());
  return (shared = child.tools);
}
