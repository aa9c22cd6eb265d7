/**
 * Entry of the integration suite inside the VS Code extension host (`extensionTestsPath`).
 * Loads every bundled `*.test.js` next to this file into mocha, in name order, and settles
 * with the outcome; VS Code then reports it through `codeAutomationExit`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';
import { screenshot } from './support/ui';

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: 'spec' });
  const grep = process.env.PF_TEST_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.afterEach(async function () {
    const test = this.currentTest;
    if (test && test.state === 'failed') await screenshot(`failure-${test.fullTitle()}`);
  });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) {
    mocha.addFile(join(__dirname, file));
  }
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
