import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot } from './support/ui';

describe('activation', () => {
  it('activates the extension under development', async () => {
    const ext = vscode.extensions.getExtension('policyforge.policyforge');
    assert.ok(ext, 'extension policyforge.policyforge is loaded');
    await ext.activate();
    assert.equal(ext.isActive, true);
    await screenshot('activation');
  });
});
