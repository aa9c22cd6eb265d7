/**
 * Immutable, content-addressed checkpoints: `.policyforge/checkpoints/<bundle id>/` holds a copy
 * of the bundle's source files (`policy/...`), the built `bundle.js` and `manifest.json`. Written
 * into a temp dir and renamed, so a checkpoint is either complete or absent.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PolicyBundle } from '../sandbox/types';
import { fsyncDir, writeFileDurable } from './atomicFs';
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

  /** Copies the bundle's sources from the workspace (unless this content is already stored). */
  save(bundle: PolicyBundle): void {
    if (this.has(bundle.id)) return;
    fs.mkdirSync(this.paths.checkpoints, { recursive: true });
    const tmp = path.join(this.paths.checkpoints, `.tmp-${bundle.id.slice(0, 12)}-${randomBytes(4).toString('hex')}`);
    for (const f of bundle.files) {
      const src = path.join(this.paths.root, f.path);
      const dst = path.join(tmp, f.path);
      fs.mkdirSync(path.dirname(dst), { recursive: true });
      writeFileDurable(dst, fs.readFileSync(src, 'utf8'));
    }
    writeFileDurable(path.join(tmp, 'bundle.js'), bundle.code);
    const manifest: CheckpointManifest = { id: bundle.id, files: bundle.files.map((f) => ({ path: f.path, bytes: f.bytes })), createdAt: new Date().toISOString() };
    writeFileDurable(path.join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fsyncDir(tmp);
    try {
      fs.renameSync(tmp, this.paths.checkpointDir(bundle.id));
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!this.has(bundle.id)) throw e;
    }
    fsyncDir(this.paths.checkpoints);
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
