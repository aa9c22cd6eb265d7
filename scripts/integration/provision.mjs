// Provisions the VS Code build the integration tests run in: code-server 4.100.3 (VS Code
// 1.100.3) from the npm registry, with its native modules rebuilt against the Node that runs them.
// @vscode/test-electron cannot be used here (it downloads VS Code from Microsoft's update
// server), so CI drives code-server's web workbench with Playwright instead.
//
//   node scripts/integration/provision.mjs          provision (no-op when already done)
//   node scripts/integration/provision.mjs --print  print the code-server entry path only
//
// Every step leaves a stamp file, so a second run costs a few stat calls and an interrupted
// run resumes at the step that did not finish.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = join(root, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`);
const pkgDir = join(cacheDir, 'node_modules', 'code-server');
export const codeServerEntry = join(pkgDir, 'out', 'node', 'entry.js');
const vscodeDir = join(pkgDir, 'lib', 'vscode');

/**
 * Runs one provisioning command with its output in a log file beside the cache, so a passing
 * provision prints one line per step; the log is printed when the step fails. `tolerate` names
 * the reason a non-zero exit is harmless, checked afterwards by the caller.
 */
function run(cmd, args, cwd, { tolerate } = {}) {
  const started = Date.now();
  const logFile = join(cacheDir, `provision-${args[0]}-${Date.now()}.log`);
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_loglevel: 'error' },
  });
  writeFileSync(logFile, `${r.stdout ?? ''}${r.stderr ?? ''}`);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0 && !tolerate) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error(`provision: \`${cmd} ${args.join(' ')}\` in ${cwd} failed with exit code ${r.status} after ${secs}s (log: ${logFile})`);
  }
  log(`${cmd} ${args.join(' ')} (${secs}s${r.status !== 0 ? `; exit ${r.status} is harmless: ${tolerate}` : ''})`);
  return r.status;
}

function log(msg) {
  process.stderr.write(`[provision] ${msg}\n`);
}

/** Runs `fn` once: its stamp file records that it completed. */
function step(name, fn) {
  const stamp = join(cacheDir, `.step-${name}`);
  if (existsSync(stamp)) return;
  log(`step ${name}`);
  fn();
  writeFileSync(stamp, new Date().toISOString() + '\n');
}

function checkPrerequisites() {
  const krb = ['/usr/include/krb5.h', '/usr/include/gssapi/gssapi.h'].some((f) => existsSync(f));
  if (!krb) throw new Error('provision: kerberos headers are missing; install the Debian package libkrb5-dev (see .ci/run)');
}

/**
 * VS Code's search and quick-open spawn @vscode/ripgrep's bin/rg, which its install script would
 * download from outside the npm registry; Debian's ripgrep (installed by scripts/systemDeps.mjs)
 * serves instead, so the workbench never logs `spawn rg ENOENT`.
 */
function linkRipgrep() {
  const rg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((f) => existsSync(f));
  if (!rg) throw new Error('provision: ripgrep is missing; install the Debian package ripgrep (see scripts/systemDeps.mjs)');
  const binDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(binDir, { recursive: true });
  rmSync(join(binDir, 'rg'), { force: true });
  symlinkSync(rg, join(binDir, 'rg'));
  log(`ripgrep: ${join(binDir, 'rg')} -> ${rg}`);
}

export function provision() {
  const started = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  // A package.json of its own keeps npm from walking up into the project's package.json.
  const ownPkg = join(cacheDir, 'package.json');
  if (!existsSync(ownPkg)) writeFileSync(ownPkg, JSON.stringify({ name: 'policyforge-vscode-test', private: true }, null, 2) + '\n');
  if (existsSync(join(cacheDir, '.step-ripgrep'))) return { entry: codeServerEntry, seconds: 0, cached: true };
  checkPrerequisites();

  step('code-server', () => run('npm', ['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], cacheDir));
  step('vscode-deps', () => run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir));
  step('vscode-native', () => {
    run('npm', ['rebuild', 'node-pty', '@vscode/spdlog', 'native-watchdog', '@vscode/deviceid', 'kerberos', '@parcel/watcher'], vscodeDir, {
      tolerate: "node-pty's compile_commands step fails after pty.node is built, which is checked next",
    });
    const pty = join(vscodeDir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
    if (!existsSync(pty)) throw new Error(`provision: node-pty was not built (${pty} missing)`);
  });
  step('extensions-deps', () => run('npm', ['install', '--omit=dev', '--ignore-scripts'], join(vscodeDir, 'extensions')));
  step('argon2', () => run('npm', ['rebuild', 'argon2', '--build-from-source'], cacheDir));
  step('ripgrep', linkRipgrep);
  const seconds = (Date.now() - started) / 1000;
  log(`code-server ${CODE_SERVER_VERSION} ready in ${seconds.toFixed(1)}s: ${codeServerEntry}`);
  return { entry: codeServerEntry, seconds, cached: false };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const r = provision();
    if (process.argv.includes('--print')) process.stdout.write(r.entry + '\n');
    else if (r.cached) log(`code-server ${CODE_SERVER_VERSION} already provisioned in ${cacheDir}`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
