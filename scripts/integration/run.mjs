// Runs the integration suite (test/integration/) inside a real VS Code: code-server's web
// workbench in Debian's Chromium, driven by Playwright. The suite runs in the extension host as
// an `extensionTestsPath` module (the payload route VS Code's own browser tests use); its mocha
// output and exit code come back through `codeAutomationLog` / `codeAutomationExit`.
//
//   node scripts/integration/run.mjs [--grep PATTERN] [--keep]
//
// The suite can ask the driver for screenshots and for text of workbench elements through a
// small loopback HTTP endpoint (PF_TEST_CONTROL in the extension host's environment), so tests
// assert on what the UI really shows, not only on the extension's own state.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { provision } from './provision.mjs';
import { buildSuite } from './buildSuite.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const resultsDir = join(root, 'test-results', 'integration');
const SUITE_TIMEOUT_MS = 15 * 60_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Workbench chatter with no bearing on the suite (offline gallery, socket setup); still kept in workbench.log. */
const NOISE = /ENOTFOUND|open-vsx|Creating a socket|connection token|Service Worker|builtin extensions cache|ChatSessionStore|vsda|^\s+at /;

const argv = process.argv.slice(2);
const grep = argv.includes('--grep') ? argv[argv.indexOf('--grep') + 1] : undefined;
const keep = argv.includes('--keep');

function log(msg) {
  process.stdout.write(`[integration] ${msg}\n`);
}

async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

function safeName(name) {
  return name.replace(/[^a-zA-Z0-9._-]+/g, '-').slice(0, 120);
}

/** Starts code-server and resolves once it listens; rejects with its output when it exits first. */
function startCodeServer(entry, port, dirs, workspace, env) {
  const args = [entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--disable-getting-started-override', '--extensions-dir', dirs.extensions, '--user-data-dir', dirs.userData, workspace];
  // Own process group: stopping the test stops the extension host and the runners it spawned.
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const ready = new Promise((resolveReady, rejectReady) => {
    const onData = (buf) => {
      const text = buf.toString();
      output += text;
      writeFileSync(join(dirs.base, 'code-server.log'), output);
      if (/HTTP server listening on/.test(output)) resolveReady();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => rejectReady(new Error(`code-server exited (code ${code}) before listening:\n${output}`)));
  });
  return { child, ready, output: () => output };
}

function stopGroup(child) {
  if (child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

async function main() {
  const t0 = Date.now();
  const prov = provision();
  log(prov.cached ? 'code-server already provisioned' : `code-server provisioned in ${prov.seconds.toFixed(1)}s`);

  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('integration: npm run build failed');
  const suiteIndex = await buildSuite();

  mkdirSync(resultsDir, { recursive: true });
  // Failure shots of an earlier run would read as failures of this one; the named shots are overwritten.
  for (const f of readdirSync(resultsDir)) if (f.startsWith('failure-')) rmSync(join(resultsDir, f), { force: true });
  rmSync(join(resultsDir, 'workbench.log'), { force: true });
  const workbenchLog = join(resultsDir, 'workbench.log');
  // Short /tmp paths: VS Code's IPC socket paths must stay under 103 characters.
  const base = mkdtempSync(join(tmpdir(), 'pfit-'));
  const dirs = { base, userData: join(base, 'u'), extensions: join(base, 'x') };
  const workspace = join(base, 'ws');
  for (const d of [dirs.userData, dirs.extensions, workspace]) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(join(dirs.userData, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'window.restoreWindows': 'none',
  }, null, 2));

  let page;
  const control = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    try {
      if (!page) throw new Error('no page yet');
      if (url.pathname === '/screenshot') {
        const file = join(resultsDir, `${safeName(url.searchParams.get('name') ?? 'shot')}.png`);
        await page.screenshot({ path: file });
        res.end(JSON.stringify({ file }));
      } else if (url.pathname === '/text') {
        const selector = url.searchParams.get('selector') ?? 'body';
        const visibleOnly = url.searchParams.get('visible') === '1';
        const texts = await page.locator(selector).evaluateAll((els, onlyVisible) => els
          .filter((e) => !onlyVisible || e.checkVisibility())
          .map((e) => `${e.textContent ?? ''} ${e.getAttribute('aria-label') ?? ''}`.trim()), visibleOnly);
        res.end(JSON.stringify({ texts }));
      } else if (url.pathname === '/type') {
        await page.keyboard.type(url.searchParams.get('text') ?? '', { delay: 20 });
        res.end('{}');
      } else if (url.pathname === '/click') {
        const selector = url.searchParams.get('selector') ?? 'body';
        const text = url.searchParams.get('text');
        // `within` + `withinText` scope the click to one container, e.g. the toast that says "running".
        const within = url.searchParams.get('within');
        const scope = within ? page.locator(within).filter({ hasText: url.searchParams.get('withinText') ?? '' }).locator(selector) : page.locator(selector);
        const target = text ? scope.filter({ hasText: text }).first() : scope.first();
        await target.click({ timeout: 10_000 });
        res.end('{}');
      } else if (url.pathname === '/press') {
        await page.keyboard.press(url.searchParams.get('key') ?? 'Escape');
        res.end('{}');
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    } catch (err) {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: String(err) }));
    }
  });
  await new Promise((r) => control.listen(0, '127.0.0.1', r));
  const controlUrl = `http://127.0.0.1:${control.address().port}`;

  const port = await freePort();
  const env = { ...process.env, PF_TEST_CONTROL: controlUrl, PF_TEST_RESULTS: resultsDir, PF_TEST_GREP: grep ?? '', PF_TEST_REPO: root };
  const server = startCodeServer(prov.entry, port, dirs, workspace, env);
  let browser;
  let exitCode = 1;
  try {
    await server.ready;
    log(`code-server listening on 127.0.0.1:${port} (workspace ${workspace})`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await ctx.newPage();
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const finished = new Promise((resolveExit) => {
      page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = Array.isArray(args) ? format(...args) : String(args);
      appendFileSync(workbenchLog, `[${type}] ${line}\n`);
      if (!NOISE.test(line)) process.stdout.write(`${line}\n`);
    });
    const payload = [['extensionDevelopmentPath', remote(root)], ['extensionTestsPath', remote(suiteIndex)], ['skipWelcome', 'true']];
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    log('workbench loaded; suite running in the extension host');
    const timeout = delay(SUITE_TIMEOUT_MS, 'timeout', { ref: false });
    const outcome = await Promise.race([finished, timeout]);
    if (outcome === 'timeout') {
      log(`suite did not report back within ${SUITE_TIMEOUT_MS / 60000} minutes`);
      exitCode = 1;
    } else {
      exitCode = outcome;
    }
    await page.screenshot({ path: join(resultsDir, exitCode === 0 ? 'final.png' : 'failure-final.png') });
  } catch (err) {
    log(String(err instanceof Error ? err.stack : err));
    if (page) await page.screenshot({ path: join(resultsDir, 'failure-driver.png') }).catch(() => {});
    exitCode = 1;
  } finally {
    await browser?.close().catch(() => {});
    stopGroup(server.child);
    control.close();
    if (!keep && exitCode === 0) rmSync(base, { recursive: true, force: true });
    else log(`kept ${base} (code-server.log, workspace)`);
  }
  log(`${exitCode === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)}s; screenshots in ${resultsDir}`);
  return exitCode;
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
