/** ts-morph carries the TypeScript compiler: importing src/analysis must not load it, the first analysis must. */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.join(__dirname, '../../..');

const PROBE = `
const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/ts-morph/'));
const analysis = require('./src/analysis/index.ts');
const before = loaded();
const fixtures = 'test/fixtures/analysis/cp-retune-gain';
analysis.analyzeEdit(fixtures + '/parent', fixtures + '/child').then((r) => {
  process.stdout.write(JSON.stringify({ before, after: loaded(), ok: r.ok }));
});
`;

describe('analysis: ts-morph is loaded lazily', () => {
  it('not on import, only on the first analysis', async () => {
    const { stdout } = await run(process.execPath, ['-r', 'tsx/cjs', '-e', PROBE], { cwd: REPO });
    assert.deepEqual(JSON.parse(stdout), { before: false, after: true, ok: true });
  });
});
