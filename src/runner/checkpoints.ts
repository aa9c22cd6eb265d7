/**
 * Immutable, content-addressed checkpoints: `.policyforge/checkpoints/<bundle id>/` holds a copy
 * of the bundle's source files (`policy/...`), the built `bundle.js` and `manifest.json`. Written
 * into a temp dir and renamed, so a checkpoint is either complete or absent.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { PolicyBundle } from '../sandbox/types';
import { fsyncDirAsync, writeFileDurableAsync } from './atomicFs';
import type { WorkspacePaths } from './paths';

export interface CheckpointManifest {
  id: string;
  files: { path: string; bytes: number }[];
  createdAt: string;
}

export class CheckpointStore {
  constructor(private readonly paths: WorkspacePaths) {}

  has(id: string): boolean {
    return fs.existsSync(path.join(this.paths.checkpointDir(id), 'manifest.json'));
  }

  /**
   * Saves the bundle (unless this content is already stored): its sources are read from the
   * workspace before this returns, so the copy is what was built even if `policy/` changes
   * meanwhile; the promise resolves once the copy is written, durable and renamed to the bundle
   * id. The writing runs on the thread pool, so it overlaps the submission's batch; the submit
   * awaits it before anything is charged. On failure the temp dir is removed.
   */
  save(bundle: PolicyBundle): Promise<void> {
    if (this.has(bundle.id)) return Promise.resolve();
    const sources = bundle.files.map((f) => ({ path: f.path, data: fs.readFileSync(path.join(this.paths.root, f.path)) }));
    return this.write(bundle, sources);
  }

  private async write(bundle: PolicyBundle, sources: readonly { path: string; data: Buffer }[]): Promise<void> {
    const tmp = path.join(this.paths.checkpoints, `.tmp-${bundle.id.slice(0, 12)}-${randomBytes(4).toString('hex')}`);
    const manifest: CheckpointManifest = { id: bundle.id, files: bundle.files.map((f) => ({ path: f.path, bytes: f.bytes })), createdAt: new Date().toISOString() };
    const files = [
      ...sources.map((s) => ({ file: path.join(tmp, s.path), data: s.data as string | Buffer })),
      { file: path.join(tmp, 'bundle.js'), data: bundle.code },
      { file: path.join(tmp, 'manifest.json'), data: `${JSON.stringify(manifest, null, 2)}\n` },
    ];
    const dirs = [...new Set([tmp, ...files.map((f) => path.dirname(f.file))])];
    try {
      // Recursive: the first also makes .policyforge/checkpoints.
      for (const dir of dirs) await fsp.mkdir(dir, { recursive: true });
      await Promise.all(files.map((f) => writeFileDurableAsync(f.file, f.data)));
      // Every folder holds entries the rename publishes.
      await Promise.all(dirs.map((d) => fsyncDirAsync(d)));
      try {
        fs.renameSync(tmp, this.paths.checkpointDir(bundle.id));
      } catch (e) {
        // The same content saved meanwhile (another submit of it) is as good.
        if (!this.has(bundle.id)) throw e;
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      await fsyncDirAsync(this.paths.checkpoints);
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
  }

  /** The stored bundle, ready to run again (validation, assessment, resume). */
  load(id: string): PolicyBundle {
    const dir = this.paths.checkpointDir(id);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as CheckpointManifest;
    return { id, code: fs.readFileSync(path.join(dir, 'bundle.js'), 'utf8'), files: manifest.files };
  }

  /** Copies a checkpoint's sources back over `policy/`; returns the workspace-relative paths written. */
  restoreInto(id: string): string[] {
    const dir = this.paths.checkpointDir(id);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as CheckpointManifest;
    const written: string[] = [];
    for (const f of manifest.files) {
      const dst = path.join(this.paths.root, f.path);
      fs.mkdirSync(path.dirname(dst), { recursive: true });
      fs.writeFileSync(dst, fs.readFileSync(path.join(dir, f.path)));
      written.push(f.path);
    }
    return written;
  }

  /** Removes half-written checkpoint dirs left by a crash. */
  cleanTemp(): void {
    if (!fs.existsSync(this.paths.checkpoints)) return;
    for (const name of fs.readdirSync(this.paths.checkpoints)) {
      if (name.startsWith('.tmp-')) fs.rmSync(path.join(this.paths.checkpoints, name), { recursive: true, force: true });
    }
  }
}
