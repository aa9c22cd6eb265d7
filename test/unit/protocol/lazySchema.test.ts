/** Lazily built schemas accept and report exactly what the eager ones do, and build only on use. */
import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseRunReport, parseSubmissionSummary, runReportSchema } from '../../../src/protocol/documents';
import { lazySchema } from '../../../src/protocol/lazySchema';
import { RUN_METHOD_SCHEMAS } from '../../../src/protocol/methods';

const shape = () => z.looseObject({ a: z.number().int(), b: z.string().optional(), c: z.array(z.enum(['x', 'y'])).nullable() });

describe('protocol: lazy schemas', () => {
  it('builds on the first parse, not when composed into other schemas', () => {
    let builds = 0;
    const lazy = lazySchema(() => {
      builds++;
      return shape();
    });
    const composed = z.object({ inner: lazy, list: z.array(lazy), either: z.union([lazy, z.null()]) }).strict();
    assert.equal(builds, 0);
    assert.equal(composed.safeParse({ inner: { a: 1, c: null }, list: [], either: null }).success, true);
    assert.equal(builds, 1);
    lazy.parse({ a: 2, c: ['x'] });
    assert.equal(builds, 1, 'built once');
  });

  it('accepts, refuses and reports exactly as the eager schema', () => {
    const eager = shape();
    const lazy = lazySchema(shape);
    const values: unknown[] = [{ a: 1, c: null }, { a: 1.5, c: null }, { a: 1, b: 2, c: ['z'] }, { a: 1, c: [], extra: true }, null, 'x', { c: null }];
    for (const v of values) {
      const e = eager.safeParse(v);
      const l = lazy.safeParse(v);
      assert.equal(l.success, e.success, JSON.stringify(v));
      assert.deepEqual(l.success ? l.data : l.error.issues, e.success ? e.data : e.error.issues, JSON.stringify(v));
    }
    assert.ok(lazy instanceof z.ZodType);
    assert.deepEqual(z.toJSONSchema(z.object({ x: lazySchema(shape) })), z.toJSONSchema(z.object({ x: shape() })));
    assert.deepEqual(z.toJSONSchema(lazy.optional()), z.toJSONSchema(eager.optional()));
  });

  it('the lazy document schemas still check report.json and summary.json field by field', () => {
    assert.match((parseRunReport('{"envId": 3}') as { error: string }).error, /envId/);
    assert.match((parseSubmissionSummary('{"submission": "one"}') as { error: string }).error, /submission/);
    const nullable = RUN_METHOD_SCHEMAS['run.report'].result;
    assert.equal(nullable.safeParse(null).success, true);
    assert.equal(nullable.safeParse({ envId: 'x' }).success, false);
    assert.equal(runReportSchema.safeParse(null).success, false);
  });
});
