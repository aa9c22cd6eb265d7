/**
 * What a policy threw, as an EpisodeError: message, stack with frames mapped through the
 * bundle's inline source map to `policy/*.ts` lines (host frames removed), and the innermost
 * policy location. Reading a thrown value can run policy code (getters), so every read is
 * guarded; nothing here calls a method of the value.
 */
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { EpisodeError, SourceLocation } from '../../protocol/episodes';
import { preview } from './actionCheck';

const FRAME = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?\s*$/;
const MAX_FRAMES = 20;
const MAX_MESSAGE = 2000;

export class BundleSourceMap {
  private map: TraceMap | null | undefined;
  /** `bundleColumn`: for a bundle with coverage writes (src/sandbox/coverage), its columns as the plain bundle's. */
  constructor(
    private readonly code: string,
    readonly filename: string,
    private readonly bundleColumn?: (line: number, column: number) => number,
  ) {}

  private traceMap(): TraceMap | null {
    if (this.map !== undefined) return this.map;
    const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(this.code);
    try {
      this.map = m?.[1] ? new TraceMap(Buffer.from(m[1], 'base64').toString('utf8')) : null;
    } catch {
      this.map = null;
    }
    return this.map;
  }

  /** 1-based line and column of the bundle to the policy source, or null. */
  lookup(line: number, column: number): SourceLocation | null {
    const map = this.traceMap();
    if (!map) return null;
    const plain = this.bundleColumn ? this.bundleColumn(line, column) : column;
    const pos = originalPositionFor(map, { line, column: Math.max(0, plain - 1) });
    if (pos.source === null || pos.line === null) return null;
    return { file: pos.source.replace(/^(\.\.?\/)+/, ''), line: pos.line, column: (pos.column ?? 0) + 1 };
  }

  /** Keeps the header of a V8 stack and the bundle's frames, mapped; drops every other frame. */
  mapStack(stack: string): { stack: string; location?: SourceLocation } {
    const header: string[] = [];
    const frames: string[] = [];
    let location: SourceLocation | undefined;
    let inFrames = false;
    for (const line of stack.split('\n')) {
      const m = FRAME.exec(line);
      if (!m) {
        if (!inFrames) header.push(line);
        continue;
      }
      inFrames = true;
      const [, fn, file, l, c] = m;
      if (file !== this.filename || frames.length >= MAX_FRAMES) continue;
      const loc = this.lookup(Number(l), Number(c));
      if (!loc) continue;
      location ??= loc;
      const where = `${loc.file}:${loc.line}:${loc.column}`;
      frames.push(fn ? `    at ${fn} (${where})` : `    at ${where}`);
    }
    return { stack: [...header, ...frames].join('\n'), location };
  }
}

/** An EpisodeError from any thrown value. */
export function policyError(thrown: unknown, map: BundleSourceMap, context: string): EpisodeError {
  if ((typeof thrown === 'object' && thrown !== null) || typeof thrown === 'function') {
    const message = read(thrown, 'message');
    const name = read(thrown, 'name');
    const stack = read(thrown, 'stack');
    if (typeof message === 'string') {
      const label = typeof name === 'string' && name ? `${name}: ${message}` : message;
      const out: EpisodeError = { message: clip(`${context}: ${label}`) };
      if (typeof stack === 'string') {
        const mapped = map.mapStack(stack);
        out.stack = clip(mapped.stack);
        if (mapped.location) out.location = mapped.location;
      }
      return out;
    }
  }
  return { message: clip(`${context}: threw a non-Error value: ${preview(thrown)}`) };
}

function read(v: object, key: string): unknown {
  try {
    return (v as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function clip(s: string): string {
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s;
}
