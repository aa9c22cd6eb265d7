/**
 * What a real sandbox worker process inherits from its host: nothing from the host's environment
 * (which may hold API keys and tokens), only the allocator settings it is started with and Node's
 * own IPC channel variables. Linux
 * only: the environment of another process is read from /proc.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { findWorkerScript, spawnWorker, WORKER_ALLOCATOR_ENV } from '../../../src/sandbox/pool/workerSpawn';
import { ensureWorkerBuilt } from './helpers';

describe('sandbox: the worker process environment', function () {
  this.timeout(30_000);

  before(function () {
    if (process.platform !== 'linux') this.skip();
    ensureWorkerBuilt();
  });

  it('holds only the allocator settings, never the host environment', async () => {
    const secret = 'PF_TEST_HOST_SECRET';
    process.env[secret] = 'sk-do-not-leak';
    const child = spawnWorker({ nodePath: process.execPath, workerScript: findWorkerScript(), heapMb: 64, plugins: [] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0').filter(Boolean);
      const env = Object.fromEntries(environ.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
      // Node adds its IPC channel's own variables (NODE_CHANNEL_FD, NODE_CHANNEL_SERIALIZATION_MODE).
      for (const key of Object.keys(env)) if (key.startsWith('NODE_CHANNEL_')) delete env[key];
      assert.equal(env[secret], undefined);
      assert.deepEqual(env, { ...WORKER_ALLOCATOR_ENV });
    } finally {
      delete process.env[secret];
      child.kill('SIGKILL');
    }
  });
});
