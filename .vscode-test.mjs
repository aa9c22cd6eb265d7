// Integration tests in a desktop VS Code, for machines that can download it from Microsoft's
// update server (CI here cannot; it uses scripts/integration/run.mjs with code-server instead).
//
//   node .vscode-test.mjs            download VS Code with @vscode/test-electron and run the suite
//   npx vscode-test                   the same through @vscode/test-cli, which reads the default export
//
// Both run the suite bundled by scripts/integration/buildSuite.mjs (out/integration/index.js).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

/** @vscode/test-cli configuration. */
export default {
  label: 'integration',
  files: 'out/integration/*/*.test.js',
  version: '1.100.3',
  workspaceFolder: mkdtempSync(join(tmpdir(), 'pfit-ws-')),
  mocha: { ui: 'bdd', timeout: 120000 },
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { runTests } = await import('@vscode/test-electron');
  const { buildSuite } = await import('./scripts/integration/buildSuite.mjs');
  const extensionTestsPath = await buildSuite();
  const workspace = mkdtempSync(join(tmpdir(), 'pfit-ws-'));
  try {
    await runTests({
      version: '1.100.3',
      extensionDevelopmentPath: root,
      extensionTestsPath,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
      extensionTestsEnv: { PF_TEST_REPO: root, PF_TEST_RESULTS: join(root, 'test-results', 'integration') },
    });
  } catch (err) {
    process.stderr.write(`integration tests failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
