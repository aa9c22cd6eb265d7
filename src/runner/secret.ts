/**
 * The per-run secret and the hidden seeds it derives. The secret lives in the user data
 * directory (never in the workspace), mode 0600; every seed is HMAC-SHA-256(secret, label) with
 * domain-separated labels, so no train feedback reveals a validation or held-out case.
 */
import { createHmac, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EpisodeSpec } from '../sandbox/types';

/** `POLICYFORGE_DATA_DIR`, else the OS user-data convention. */
export function dataDir(): string {
  const override = process.env.POLICYFORGE_DATA_DIR;
  if (override) return path.resolve(override);
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'policyforge');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'policyforge');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'policyforge');
}

export function secretPath(runId: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(runId)) throw new Error(`invalid run id "${runId}"`);
  return path.join(dataDir(), 'runs', `${runId}.secret`);
}

/** The run's secret, or undefined when its file does not exist. */
export function loadSecret(runId: string): Buffer | undefined {
  try {
    return Buffer.from(fs.readFileSync(secretPath(runId), 'utf8').trim(), 'hex');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Loads the run's secret, creating it (exclusively, mode 0600) on first use. */
export function loadOrCreateSecret(runId: string): Buffer {
  const file = secretPath(runId);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  try {
    fs.writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Lost a creation race with another runner process: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    throw e;
  }
  return secret;
}

/** `practice`: practice submits' cases, a label of their own so they reveal no other split's seeds. */
export type Split = 'train' | 'validation' | 'assessment' | 'practice';

export class SeedDeriver {
  constructor(private readonly secret: Buffer) {}

  /** Identifies the secret in the journal without revealing anything about the hidden cases. */
  fingerprint(): string {
    return createHmac('sha256', this.secret).update('fingerprint').digest('hex').slice(0, 16);
  }

  /** A 32-bit seed for one label. */
  seed(label: string): number {
    return createHmac('sha256', this.secret).update(label).digest().readUInt32LE(0);
  }

  /** Environment and policy seed of case `index` of a split. Train policy seeds use `policy/i`. */
  episode(split: Split, index: number): EpisodeSpec {
    const envSeed = this.seed(`${split}/${index}`);
    const policySeed = this.seed(split === 'train' ? `policy/${index}` : `policy/${split}/${index}`);
    return { caseIndex: index, envSeed, policySeed };
  }
}

/**
 * The seeds of run `runId`, given its journal. A new run (no `created` line yet) gets a secret
 * made now; a run that has started must find the very secret it started with, or its hidden
 * cases would silently become other cases, so a missing or swapped secret throws.
 */
export function openSeeds(runId: string, events: readonly { type: string; secretFingerprint?: string }[]): { seeds: SeedDeriver; created: boolean } {
  const created = events.find((e) => e.type === 'created');
  const secret = created ? loadSecret(runId) : loadOrCreateSecret(runId);
  if (!secret) throw new Error(`the secret of run ${runId} is missing (${secretPath(runId)}); its hidden cases cannot be reproduced, so the run cannot continue`);
  const seeds = new SeedDeriver(secret);
  if (created?.secretFingerprint && created.secretFingerprint !== seeds.fingerprint()) {
    throw new Error(`the secret at ${secretPath(runId)} is not the one this run started with; the run cannot continue`);
  }
  return { seeds, created: created !== undefined };
}
