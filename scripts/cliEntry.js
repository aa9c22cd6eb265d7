'use strict';
// dist/cli.js, the CLI's entry (bin/policyforge.js requires it), written by scripts/build.mjs from
// scripts/cliEntry.js. The quick read-only commands run from one CommonJS bundle, dist/cliQuick.js;
// every other command from the ES-module CLI, dist/cli.mjs and its cli-*.mjs chunks.
const Module = require('node:module');
const path = require('node:path');

const QUICK = new Set(/* QUICK_COMMANDS */ []);

// Node ≥ 22.1 keeps a compile cache for every module it loads, ES modules included.
const nodeCompileCache = typeof Module.enableCompileCache === 'function';
if (nodeCompileCache) {
  try {
    Module.enableCompileCache();
  } catch {
    // Caching is an optimisation: the CLI runs the same without it.
  }
}

module.exports.main = (argv) => (QUICK.has(argv[0]) ? loadQuick().main(argv) : import('./cli.mjs').then((cli) => cli.main(argv)));

function loadQuick() {
  const file = path.join(__dirname, 'cliQuick.js');
  if (nodeCompileCache || process.env.NODE_DISABLE_COMPILE_CACHE) return require(file);
  return requireWithCodeCache(file);
}

/**
 * Older Node has no compile cache, and compiling the quick bundle is a good part of a quick
 * command's start-up: V8's code cache for it, produced after the first run (so the functions that
 * run compiled lazily are in it), sits in a folder only this user can write. The cache's name
 * carries the bundle's size and mtime, so a rebuilt bundle never meets an old cache; V8 itself
 * refuses a cache from another V8 version or other flags.
 */
function requireWithCodeCache(file) {
  const fs = require('node:fs');
  const vm = require('node:vm');
  let source;
  let stat;
  try {
    source = fs.readFileSync(file, 'utf8');
    stat = fs.statSync(file);
  } catch {
    return require(file);
  }
  const dir = cacheDir();
  const install = `cliQuick-${hash(file)}-`;
  const cacheFile = dir && path.join(dir, `${install}${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}-${process.arch}.bin`);
  let cachedData;
  if (cacheFile) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, cacheFile);
        // Caches of this install's earlier builds are never read again.
        for (const f of fs.readdirSync(dir)) if (f.startsWith(install) && f.endsWith('.bin') && path.join(dir, f) !== cacheFile) fs.rmSync(path.join(dir, f), { force: true });
      } catch {
        fs.rmSync(tmp, { force: true });
      }
    });
  }
  return mod.exports;
}

/** The per-user cache folder, or null when it cannot be made or is not this user's alone. */
function cacheDir() {
  const fs = require('node:fs');
  const os = require('node:os');
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const dir = path.join(os.tmpdir(), `policyforge-compile-cache${uid === null ? '' : `-${uid}`}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if (!e || e.code !== 'EEXIST') return null;
  }
  try {
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (uid !== null && (st.uid !== uid || (st.mode & 0o077) !== 0))) return null;
  } catch {
    return null;
  }
  return dir;
}

/** FNV-1a of the bundle's path, so two installs never share a cache file. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}
