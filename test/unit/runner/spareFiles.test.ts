import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SpareFiles } from '../../../src/runner/spareFiles';
import { cleanupTmp, tmpDir } from './helpers';

/** Writes `text` through a descriptor from `spares.open` and closes it. */
function writeVia(spares: SpareFiles, file: string, text: string): void {
  const fd = spares.open(file);
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

describe('runner: spare files for feedback commits', () => {
  after(() => cleanupTmp());

  function setUp(target: number): { dir: string; out: string; spares: SpareFiles } {
    const root = tmpDir('pf-spares-');
    const out = path.join(root, 'out');
    fs.mkdirSync(out);
    return { dir: path.join(root, 'spare'), out, spares: new SpareFiles(path.join(root, 'spare'), target) };
  }

  it('makes spares up to its target while idle and moves one into place per file, which then holds exactly what was written', async () => {
    const { dir, out, spares } = setUp(6);
    await spares.refill();
    assert.equal(fs.readdirSync(dir).length, 6);
    const inodes = new Set(fs.readdirSync(dir).map((n) => fs.statSync(path.join(dir, n)).ino));
    writeVia(spares, path.join(out, 'a.jsonl'), 'line\n');
    assert.equal(fs.readFileSync(path.join(out, 'a.jsonl'), 'utf8'), 'line\n');
    assert.ok(inodes.has(fs.statSync(path.join(out, 'a.jsonl')).ino), 'the file is one of the spares, not a new one');
    assert.equal(fs.readdirSync(dir).length, 5);
    await spares.refill();
    assert.equal(fs.readdirSync(dir).length, 6, 'refilled to the target');
  });

  it('never lets stray bytes in a spare into a file', async () => {
    const { dir, out, spares } = setUp(1);
    await spares.refill();
    fs.writeFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'something else wrote here, much longer than the file');
    writeVia(spares, path.join(out, 'b.txt'), 'ok');
    assert.equal(fs.readFileSync(path.join(out, 'b.txt'), 'utf8'), 'ok');
  });

  it('creates the file when no spare is left, or when the spares were removed behind its back', async () => {
    const { dir, out, spares } = setUp(2);
    writeVia(spares, path.join(out, 'none-yet.txt'), 'x');
    await spares.refill();
    fs.rmSync(dir, { recursive: true });
    writeVia(spares, path.join(out, 'removed.txt'), 'y');
    assert.equal(fs.readFileSync(path.join(out, 'none-yet.txt'), 'utf8'), 'x');
    assert.equal(fs.readFileSync(path.join(out, 'removed.txt'), 'utf8'), 'y');
  });

  it('stops refilling when paused (a submission begins) and goes on at the next refill', async () => {
    const { dir, spares } = setUp(400);
    const refill = spares.refill();
    spares.pause();
    await refill;
    const made = fs.readdirSync(dir).length;
    assert.ok(made > 0 && made < 400, `paused after the first slice, not after ${made} files`);
    await spares.refill();
    assert.equal(fs.readdirSync(dir).length, 400);
  });

  it('a restarted runner uses the spares the last one left; retiring removes them all', async () => {
    const { dir, out, spares } = setUp(3);
    await spares.refill();
    fs.closeSync(spares.open(path.join(out, 'taken.txt')));
    spares.close();
    await spares.refill();
    assert.equal(fs.readdirSync(dir).length, 2, 'a closed pool (a stopping runner) makes no more but keeps its spares');
    const again = new SpareFiles(dir, 3);
    assert.equal(again.count, 2);
    writeVia(again, path.join(out, 'c.txt'), 'z');
    assert.equal(fs.readdirSync(dir).length, 1);
    again.retire();
    assert.equal(fs.existsSync(dir), false);
    await again.refill();
    assert.equal(fs.existsSync(dir), false, 'a retired pool makes no more');
    writeVia(again, path.join(out, 'd.txt'), 'w');
    assert.equal(fs.readFileSync(path.join(out, 'd.txt'), 'utf8'), 'w');
  });
});
