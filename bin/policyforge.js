#!/usr/bin/env node
// The `policyforge` command: a thin launcher for the bundled CLI in dist/.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'cli.js');
// A reader that stops early (`policyforge envs | head`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
if (!fs.existsSync(entry)) {
  process.stderr.write(`policyforge: ${entry} is missing; run "npm run build" (npm install does it once).\n`);
  process.exit(2);
}
require(entry)
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
