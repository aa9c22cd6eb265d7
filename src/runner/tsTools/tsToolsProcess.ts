/**
 * Entry of `dist/tsTools.js`: the runner's TypeScript tools (tools.ts) in a child process. Each
 * IPC message `{ id, method, args }` is answered with `{ id, ok: true, value }` or
 * `{ id, ok: false, error }`; the process ends when the runner disconnects (see tsToolsClient.ts).
 */
import { inProcessTools, type TsToolMethod } from './tools';

interface Request {
  id: number;
  method: TsToolMethod;
  args: unknown[];
}

const send = process.send?.bind(process);
if (!send) {
  process.stderr.write('dist/tsTools.js is started by the runner over IPC, not by hand\n');
  process.exit(2);
}

process.on('message', (m: Request) => {
  const call = inProcessTools[m.method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
  if (typeof call !== 'function') {
    send({ id: m.id, ok: false, error: `no TypeScript tool named ${String(m.method)}` });
    return;
  }
  call(...m.args).then(
    (value) => send({ id: m.id, ok: true, value }),
    (e: unknown) => send({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
});
process.on('disconnect', () => process.exit(0));
