/**
 * What the suite can ask the Playwright driver (scripts/integration/run.mjs) about the real
 * workbench: screenshots and the text of elements. Outside the driver (e.g. under
 * @vscode/test-electron) these degrade to no-ops / undefined so the suite still runs.
 */
const control = process.env.PF_TEST_CONTROL;

async function ask(path: string, params: Record<string, string>): Promise<unknown> {
  if (!control) return undefined;
  const res = await fetch(`${control}${path}?${new URLSearchParams(params).toString()}`);
  const body: unknown = await res.json();
  if (!res.ok) throw new Error(`driver ${path} failed: ${JSON.stringify(body)}`);
  return body;
}

export const driverAvailable = control !== undefined && control !== '';

export async function screenshot(name: string): Promise<void> {
  await ask('/screenshot', { name }).catch((err: unknown) => console.error(`screenshot ${name}: ${String(err)}`));
}

/** Text content + aria-label of every element matching `selector`, or undefined without a driver. */
export async function workbenchTexts(selector: string): Promise<string[] | undefined> {
  const body = (await ask('/text', { selector })) as { texts: string[] } | undefined;
  return body?.texts;
}

export async function pressKey(key: string): Promise<void> {
  await ask('/press', { key });
}

/** Polls `probe` until it returns a value that is not undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

/** Types text into whatever has focus in the workbench (a quick input, an editor). */
export async function typeText(text: string): Promise<void> {
  await ask('/type', { text });
}

/** Clicks the first element matching `selector` (and containing `text`, when given). */
export async function click(selector: string, text?: string, within?: { selector: string; text: string }): Promise<void> {
  await ask('/click', { selector, ...(text ? { text } : {}), ...(within ? { within: within.selector, withinText: within.text } : {}) });
}

/** Texts of the visible elements matching `selector`. */
export async function visibleTexts(selector: string): Promise<string[]> {
  const body = (await ask('/text', { selector, visible: '1' })) as { texts: string[] } | undefined;
  return body?.texts ?? [];
}

/** Waits until a visible element matching `selector` contains `text`; returns its text. */
export async function waitForText(selector: string, text: string | RegExp, timeoutMs = 30_000): Promise<string> {
  return waitFor(`"${String(text)}" in ${selector}`, async () => {
    const texts = await visibleTexts(selector);
    return texts.find((t) => (typeof text === 'string' ? t.includes(text) : text.test(t)));
  }, timeoutMs);
}
