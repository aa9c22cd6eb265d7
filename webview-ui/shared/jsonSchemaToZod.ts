/**
 * Rebuilds zod schemas from the JSON Schema subset that z.toJSONSchema emits for the panel
 * protocol. z.fromJSONSchema handles any JSON Schema but builds slower validators (a 3 MB
 * dashboard snapshot took ~3× as long); this maps each keyword to the plain zod type the
 * protocol module started from. An unknown keyword throws, and schemas.test.ts builds every
 * message schema, so a protocol change that needs a new keyword fails a test, not a panel.
 */
import { z } from 'zod';

type Json = { [k: string]: unknown };

const KNOWN = new Set(['$schema', 'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'oneOf', 'enum', 'const', 'propertyNames', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'description', 'default']);

export function jsonSchemaToZod(schema: unknown): z.ZodType {
  if (schema === true || (typeof schema === 'object' && schema !== null && Object.keys(schema).length === 0)) return z.unknown();
  if (typeof schema !== 'object' || schema === null) throw new Error(`unsupported JSON Schema ${JSON.stringify(schema)}`);
  const s = schema as Json;
  for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`unsupported JSON Schema keyword "${k}"`);
  const alts = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (alts !== undefined) {
    const parts = alts.map(jsonSchemaToZod);
    // `X | null` is the common case (nullable): keep it a nullable, not a union.
    const nullIdx = alts.findIndex((a) => (a as Json)['type'] === 'null');
    if (parts.length === 2 && nullIdx >= 0) return (parts[1 - nullIdx] as z.ZodType).nullable();
    return z.union(parts as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
  if (Array.isArray(s['type'])) {
    const types = s['type'] as string[];
    const one = (t: string): z.ZodType => jsonSchemaToZod({ ...s, type: t });
    const rest = types.filter((t) => t !== 'null');
    const base = rest.length === 1 ? one(rest[0] as string) : z.union(rest.map(one) as [z.ZodType, z.ZodType]);
    return types.includes('null') ? base.nullable() : base;
  }
  if ('const' in s) return z.literal(s['const'] as string | number | boolean);
  if (Array.isArray(s['enum'])) {
    const values = s['enum'] as unknown[];
    return values.every((v) => typeof v === 'string') ? z.enum(values as [string, ...string[]]) : z.union(values.map((v) => z.literal(v as string | number | boolean)) as unknown as [z.ZodType, z.ZodType]);
  }
  switch (s['type']) {
    case 'string': {
      let t = z.string();
      if (typeof s['minLength'] === 'number') t = t.min(s['minLength']);
      if (typeof s['maxLength'] === 'number') t = t.max(s['maxLength']);
      return t;
    }
    case 'number':
    case 'integer': {
      let t = s['type'] === 'integer' ? z.number().int() : z.number();
      if (typeof s['minimum'] === 'number') t = t.min(s['minimum']);
      if (typeof s['maximum'] === 'number') t = t.max(s['maximum']);
      if (typeof s['exclusiveMinimum'] === 'number') t = t.gt(s['exclusiveMinimum']);
      if (typeof s['exclusiveMaximum'] === 'number') t = t.lt(s['exclusiveMaximum']);
      return t;
    }
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'array': {
      let t = z.array(s['items'] === undefined ? z.unknown() : jsonSchemaToZod(s['items']));
      if (typeof s['minItems'] === 'number') t = t.min(s['minItems']);
      if (typeof s['maxItems'] === 'number') t = t.max(s['maxItems']);
      return t;
    }
    case 'object': {
      const names = s['propertyNames'] as Json | undefined;
      if (names !== undefined) {
        const keys = names['enum'];
        const value = jsonSchemaToZod(s['additionalProperties'] ?? {});
        return Array.isArray(keys) ? z.partialRecord(z.enum(keys as [string, ...string[]]), value) : z.record(z.string(), value);
      }
      const props = (s['properties'] ?? {}) as Record<string, unknown>;
      const required = new Set((s['required'] ?? []) as string[]);
      const shape: Record<string, z.ZodType> = {};
      for (const [k, v] of Object.entries(props)) {
        const t = jsonSchemaToZod(v);
        shape[k] = required.has(k) ? t : t.optional();
      }
      const extra = s['additionalProperties'];
      if (extra === false) return z.strictObject(shape);
      if (extra === undefined) return z.object(shape);
      if (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0) return z.looseObject(shape);
      if (Object.keys(props).length === 0) return z.record(z.string(), jsonSchemaToZod(extra));
      return z.object(shape).catchall(jsonSchemaToZod(extra));
    }
    default:
      throw new Error(`unsupported JSON Schema type ${JSON.stringify(s['type'])}`);
  }
}
