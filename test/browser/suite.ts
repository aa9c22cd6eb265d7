/**
 * The shared set-up of a browser test file: one webview server and one Chromium per file, a page
 * per test (closed at the end), and the CSP check every test can make.
 */
import type { Browser } from 'playwright-core';
import type { PanelKind } from '../../src/protocol/webview';
import { chromiumAvailable, launchChromium, openPanel, type PanelPage, type WebviewServer, startWebviewServer } from './harness';

export interface PanelSuite {
  panel(kind: PanelKind, o?: Parameters<typeof openPanel>[3]): Promise<PanelPage>;
}

/** Registers the mocha hooks in the calling `describe` and returns the page opener. */
export function panelSuite(): PanelSuite {
  let server: WebviewServer | undefined;
  let browser: Browser | undefined;
  const open: PanelPage[] = [];
  before(async function () {
    // .ci/run installs chromium; a dev machine without it skips rather than fails.
    if (!chromiumAvailable()) this.skip();
    server = await startWebviewServer();
    browser = await launchChromium();
  });
  after(async () => {
    for (const p of open) await p.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });
  return {
    panel: async (kind, o = {}) => {
      if (browser === undefined || server === undefined) throw new Error('panelSuite: before() has not run');
      const p = await openPanel(browser, server, kind, o);
      open.push(p);
      return p;
    },
  };
}

/** Console lines that show a CSP violation or an uncaught error. */
export function cspViolations(p: PanelPage): string[] {
  return p.console.filter((l) => /Content Security Policy|Refused to/i.test(l) || l.startsWith('pageerror'));
}
