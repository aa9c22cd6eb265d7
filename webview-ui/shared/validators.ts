/**
 * Runtime validation in the webview with the protocol's own schemas: src/protocol/webview.ts
 * exports them as JSON Schema (protocolSchemas.json, generated and checked by a test) and they are
 * rebuilt here (jsonSchemaToZod), because webview-ui may import only types from src/protocol.
 * One schema per message type, picked by `type`, so errors name the exact field.
 */
import { z } from 'zod';
import type { HostToWebview, PanelState, WebviewToHost } from '../../src/protocol/webview';
import { jsonSchemaToZod } from './jsonSchemaToZod';
import schemas from './protocolSchemas.json';

const cache = new Map<string, z.ZodType>();

function schemaFor(group: 'host' | 'webview', type: string): z.ZodType | undefined {
  const key = `${group}:${type}`;
  let s = cache.get(key);
  if (s === undefined) {
    const json = (schemas[group] as Record<string, unknown>)[type];
    if (json === undefined) return undefined;
    s = jsonSchemaToZod(json);
    cache.set(key, s);
  }
  return s;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

function check<T>(group: 'host' | 'webview', data: unknown): Checked<T> {
  if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return { ok: false, error: '(root): expected an object with a string "type"' };
  const type = (data as { type: string }).type;
  const schema = schemaFor(group, type);
  if (schema === undefined) return { ok: false, error: `type: unknown message type "${type}"` };
  const r = schema.safeParse(data);
  return r.success ? { ok: true, value: r.data as T } : { ok: false, error: describe(r.error) };
}

export const checkHostMessage = (data: unknown): Checked<HostToWebview> => check<HostToWebview>('host', data);
export const checkWebviewMessage = (data: unknown): Checked<WebviewToHost> => check<WebviewToHost>('webview', data);

let stateSchema: z.ZodType | undefined;
export function checkPanelState(data: unknown): Checked<PanelState> {
  stateSchema ??= jsonSchemaToZod(schemas.state);
  const r = stateSchema.safeParse(data);
  return r.success ? { ok: true, value: r.data as PanelState } : { ok: false, error: describe(r.error) };
}

function describe(error: z.ZodError): string {
  return error.issues.slice(0, 5).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}
