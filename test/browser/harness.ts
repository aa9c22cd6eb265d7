/**
 * Drives the built panel bundles in headless Chromium: builds webview-ui with esbuild into a temp
 * folder, serves it over loopback HTTP under the real CSP (renderPanelHtml), and fakes the VS Code
 * host with a stub acquireVsCodeApi that records postMessage and keeps setState across reloads
 * (sessionStorage), as VS Code does. Used by the webview tests, the bench and the screenshot script.
 */
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../src/extension/panels/htmlDocument';
import type { PanelKind } from '../../src/protocol/webview';
import { THEME_CLASS, THEME_VARS, type ThemeName } from './themes';

const ROOT = resolve(__dirname, '../..');
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export interface WebviewServer {
  origin: string;
  dir: string;
  close(): Promise<void>;
}

/** Builds the three panel bundles (same options as scripts/build.mjs) and serves them. */
export async function startWebviewServer(opts: { minify?: boolean } = {}): Promise<WebviewServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-webview-'));
  await esbuild.build({
    entryPoints: {
      dashboard: join(ROOT, 'webview-ui/dashboard/main.ts'),
      replay: join(ROOT, 'webview-ui/replay/main.ts'),
      diagnostics: join(ROOT, 'webview-ui/diagnostics/main.ts'),
      leaderboard: join(ROOT, 'webview-ui/leaderboard/main.ts'),
      arena: join(ROOT, 'webview-ui/arena/main.ts'),
    },
    bundle: true,
    outdir: dir,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    loader: { '.css': 'css', '.ttf': 'file' },
    // Minified: the tests load each bundle many times, parse time adds up.
    minify: opts.minify ?? true,
    logLevel: 'error',
  });
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = /^\/panel\/(dashboard|replay|diagnostics|leaderboard|arena)\.html$/.exec(url.pathname);
    if (page) {
      const panel = page[1] as PanelKind;
      const theme = (url.searchParams.get('theme') ?? 'light') as ThemeName;
      const html = renderPanelHtml({
        panel,
        title: panel,
        cspSource: origin,
        scriptUri: `${origin}/${panel}.js`,
        styleUri: existsSync(join(dir, `${panel}.css`)) ? `${origin}/${panel}.css` : undefined,
      })
        // VS Code supplies the theme as variables on <html> and a body class; a stylesheet from
        // the allowed origin does the same here without loosening the CSP.
        .replace('</head>', `  <link rel="stylesheet" href="${origin}/__theme/${theme}.css">\n</head>`)
        .replace('<body ', `<body class="${THEME_CLASS[theme] ?? 'vscode-light'}" `);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    const themeCss = /^\/__theme\/([a-z-]+)\.css$/.exec(url.pathname);
    if (themeCss) {
      const vars = THEME_VARS[themeCss[1] as ThemeName] ?? THEME_VARS.light;
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(`:root {\n${Object.entries(vars).map(([k, v]) => `  ${k}: ${v};`).join('\n')}\n}\n`);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    const file = normalize(join(dir, url.pathname));
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    const type = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.ttf': 'font/ttf' }[extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    dir,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface PanelPage {
  page: Page;
  /** Console messages (type: text), including CSP violations. */
  console: string[];
  /** Messages the panel posted to the host, oldest first. */
  sent(): Promise<{ type: string; [k: string]: unknown }[]>;
  /** Delivers a message as the host would (window 'message' event). */
  send(message: unknown): Promise<void>;
  state(): Promise<unknown>;
  setTheme(theme: ThemeName): Promise<void>;
  /** Waits until the panel has rendered `n` times in total (body[data-rendered]). */
  rendered(n?: number): Promise<void>;
  close(): Promise<void>;
}

export async function openPanel(browser: Browser, server: WebviewServer, panel: PanelKind, o: { theme?: ThemeName; state?: unknown; width?: number; height?: number } = {}): Promise<PanelPage> {
  const context = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  const theme = o.theme ?? 'light';
  // tsx compiles with keepNames, which wraps functions serialized into the page in __name().
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.addInitScript(({ initialState }) => {
    const key = 'pf-fake-host-state';
    if (initialState !== undefined && sessionStorage.getItem(key) === null) sessionStorage.setItem(key, JSON.stringify(initialState));
    const w = window as unknown as { __pf: { sent: unknown[]; acquired: number } ; acquireVsCodeApi: () => unknown };
    w.__pf = { sent: [], acquired: 0 };
    w.acquireVsCodeApi = () => {
      if (++w.__pf.acquired > 1) throw new Error('acquireVsCodeApi called twice');
      return {
        postMessage: (m: unknown) => { w.__pf.sent.push(JSON.parse(JSON.stringify(m))); },
        getState: () => { const s = sessionStorage.getItem(key); return s === null ? undefined : JSON.parse(s); },
        setState: (s: unknown) => { sessionStorage.setItem(key, JSON.stringify(s)); },
      };
    };
  }, { initialState: o.state });
  await page.goto(`${server.origin}/panel/${panel}.html?theme=${theme}`);
  const pp: PanelPage = {
    page,
    console: consoleLines,
    sent: () => page.evaluate(() => (window as unknown as { __pf: { sent: { type: string }[] } }).__pf.sent),
    send: (message) => page.evaluate((m) => window.postMessage(m, '*'), message),
    state: () => page.evaluate(() => { const s = sessionStorage.getItem('pf-fake-host-state'); return s === null ? undefined : JSON.parse(s); }),
    setTheme: (t) => page.evaluate(({ cls, vars }) => {
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.className = cls;
    }, { cls: THEME_CLASS[t], vars: THEME_VARS[t] }),
    rendered: async (n = 1) => {
      await page.waitForFunction((k) => Number(document.body.dataset['rendered'] ?? '0') >= k, n, { timeout: 10_000 });
    },
    close: () => context.close(),
  };
  return pp;
}
