// Makes sure the Debian packages the test stages need are present, so `npm install && npm test`
// is the whole set-up on a fresh machine: Chromium (browser and real-VS-Code stages), the
// headers code-server's native modules build against, and Redis (the distributed suite test). Installs them with apt-get when running as
// root; otherwise says exactly what to install. A no-op once they are there.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PACKAGES = [
  { name: 'chromium', present: () => existsSync(CHROMIUM) },
  { name: 'libkrb5-dev', present: () => dpkgInstalled('libkrb5-dev') },
  { name: 'build-essential', present: () => dpkgInstalled('build-essential') },
  // VS Code's search in the real-VS-Code stage (scripts/integration/provision.mjs links it).
  { name: 'ripgrep', present: () => dpkgInstalled('ripgrep') },
  // A real Redis for the distributed suite test (BullMQ workers, test/unit/suite).
  { name: 'redis-server', present: () => dpkgInstalled('redis-server') },
];

function dpkgInstalled(name) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

const missing = PACKAGES.filter((p) => !p.present()).map((p) => p.name);
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  process.stderr.write(`The test stages need these system packages: ${missing.join(', ')}.\n` +
    `Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) or set CHROMIUM_PATH, then run npm test again.\n`);
  process.exit(1);
}
process.stdout.write(`[system] installing ${missing.join(', ')} with apt-get\n`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
// Another apt-get (unattended upgrades, a provisioning script) may hold the dpkg lock on a fresh
// machine: apt waits for it up to LOCK_WAIT_S, and a failed step is tried once more after a pause.
const LOCK_WAIT_S = 300;
const aptOptions = ['-o', `DPkg::Lock::Timeout=${LOCK_WAIT_S}`, '-qq'];

function apt(args) {
  for (let attempt = 1; ; attempt++) {
    // apt's progress goes to a buffer and is shown only when the step fails.
    const r = spawnSync('apt-get', [...aptOptions, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status === 0) return;
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    if (attempt === 2) {
      process.stderr.write(
        `[system] "apt-get ${args.join(' ')}" failed twice (exit ${r.status ?? r.signal}); ` +
          `install the packages by hand (apt-get install -y ${missing.join(' ')}) and run npm test again.\n`,
      );
      process.exit(1);
    }
    process.stderr.write(`[system] "apt-get ${args[0]}" failed (exit ${r.status ?? r.signal}); trying once more in 15 s\n`);
    spawnSync('sleep', ['15']);
  }
}

apt(['update']);
apt(['install', '-y', '--no-install-recommends', ...missing]);
