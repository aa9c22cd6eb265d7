/**
 * Which bundles run their module once per realm (sealed) and which once per episode: the check
 * must let the usual policy shapes share (constants, helpers, classes) and send anything that
 * could carry state from one episode to the next to a module per episode.
 */
import { strict as assert } from 'node:assert';
import { planModule, SEAL_PARAMETER } from '../../../src/sandbox/worker/modulePlan';
import { bundleOf, removeWorkspaces } from './helpers';

const POLICY = `export class Policy { act(o: Float64Array): number { return step(o); } }\n`;

async function plan(moduleCode: string, policy = POLICY): Promise<ReturnType<typeof planModule>> {
  return planModule((await bundleOf(`${moduleCode}\n${policy}`)).code);
}

describe('sandbox: sharing a module across episodes', function () {
  this.timeout(30_000);
  after(() => removeWorkspaces());

  it('shares modules of constants, functions, classes and JSON, sealing every top-level value', async () => {
    const p = await plan(`const GAINS = [0.1, -0.2, 1e-3];
const NAMES = { left: 0, right: 1 } as const;
const HALF = Math.sqrt(2) / 2, LABEL = \`v\${HALF}\`;
function step(o: Float64Array): number { return o[0]! * GAINS[0]! > HALF ? NAMES.right : NAMES.left; }
class Memory { private items: number[] = []; static readonly SIZE = 8; add(x: number) { this.items.push(x); if (this.items.length > Memory.SIZE) this.items.shift(); } }
export const helpers = { step, Memory, LABEL };`);
    assert.equal(p.reuse, true, p.reuse ? '' : p.reason);
    if (!p.reuse) return;
    assert.match(p.code, new RegExp(`${SEAL_PARAMETER}\\(\\[[^\\]]*\\bGAINS\\b[^\\]]*\\bMemory\\b[^\\]]*\\]\\); return __toCommonJS`));
  });

  it('shares modules whose load-time values are computed from constants and built-ins only', async () => {
    const p = await plan(`const TAU = Math.PI * 2;
const W = [0.5, -1, 2];
const N = W.length, SCALE = TAU / N, EPS = Number.EPSILON;
const T = { gains: W, bias: -0.1 };
const FIRST = T.gains, SAME = W === FIRST, DESCRIBE = \`n=\${N} \${typeof T}\`;
class Base { static readonly K = SCALE > 1 ? 1 : 0; #last = 0; get last(): number { return this.#last; } }
class Agent extends Base { static readonly [\`k\${N}\`] = 1; }
function step(o: Float64Array): number { return o[0]! * W[0]! + EPS + (SAME ? Agent.K : 0) + DESCRIBE.length > 0 ? 1 : 0; }`);
    assert.equal(p.reuse, true, p.reuse ? '' : p.reason);
  });

  it('knows whether the code can reach the global object (only through the name globalThis, in strict code)', async () => {
    assert.equal((await plan(`function step(o: Float64Array): number { return o[0]! > 0 ? 1 : 0; }\nconst info = { globalThis: 1 };\nconst read = (x: { globalThis: number }) => x.globalThis;`)).mayAddGlobals, false);
    assert.equal((await plan(`function step(o: Float64Array): number { (globalThis as any).seen = o[0]; return 0; }`)).mayAddGlobals, true);
    assert.equal((await plan(`const g: any = globalThis;\nfunction step(): number { return g.x ?? 0; }`)).mayAddGlobals, true);
    assert.equal(planModule('var __policyforge_module = (() => { return {}; })();').mayAddGlobals, true, 'sloppy code reaches it through this');
  });

  const fresh: [string, string, RegExp][] = [
    ['a module-level let that is reassigned', `let calls = 0;\nfunction step(o: Float64Array): number { calls++; return o[0]! > 0 ? 1 : 0; }`, /calls is reassigned/],
    ['a write into a module-level array', `const last = [0];\nfunction step(o: Float64Array): number { last[0] = o[0]!; return 0; }`, /last is written into/],
    ['a mutating method on a module-level value', `const seen: number[] = [];\nfunction step(o: Float64Array): number { seen.push(o[0]!); return 0; }`, /seen may be changed by \.push\(\)/],
    ['a class static counter', `class C { static n = 0; }\nfunction step(): number { C.n += 1; return 0; }`, /C is written into/],
    ['a Map built at load time', `const cache = new Map<number, number>();\nfunction step(): number { return cache.size; }`, /NewExpression/],
    ['Math.random at load time (would differ by episode order)', `const r = Math.random();\nfunction step(): number { return r > 0.5 ? 1 : 0; }`, /call at the top level/],
    ['code running at load time', `const table: number[] = [];\nfor (let i = 0; i < 4; i++) table.push(i);\nfunction step(): number { return table[0]!; }`, /top-level ForStatement/],
    ['a static block', `class C { static x: number; static { C.x = 1; } }\nfunction step(): number { return C.x; }`, /static block|C is written into/],
    // Code that runs at load time without a call expression: a getter, a conversion.
    ['a getter read at load time (it could build a Map to pass messages in)', `const box = ({ get m() { return new Map<number, number>(); } }).m;\nfunction step(): number { return box.size; }`, /getter/],
    ['a getter in a module-level object', `const o = { get n() { return 1; } };\nfunction step(): number { return o.n; }`, /getter in a module-level object/],
    ['a private static field (freezing the class does not reach it)', `class C { static #n = 0; static next(): number { return C.#n++; } }\nfunction step(): number { return C.next(); }`, /private static field|C is written into/],
    ['a private static field written through this', `class C { static #n = 0; static next(): number { return this.#n++; } }\nfunction step(): number { return C.next(); }`, /private static field/],
    ['valueOf run by a conversion at load time', `const x = +{ valueOf: Math.random };\nfunction step(): number { return x > 0.5 ? 1 : 0; }`, /converted at load time|ObjectExpression/],
    ['a module-level object converted at load time', `const o = { valueOf: Math.random };\nconst x = o * 2;\nfunction step(): number { return x > 1 ? 1 : 0; }`, /o is converted at load time/],
    ['toString run by a template at load time', `const o = { toString: () => String(Math.random()) };\nconst s = \`\${o}\`;\nfunction step(): number { return s.length; }`, /o is converted at load time/],
    ['a Math function given an object', `const o = { valueOf: Math.random };\nconst x = Math.floor(o as unknown as number);\nfunction step(): number { return x; }`, /o is converted at load time/],
    ['a spread at load time', `const a = [1, 2];\nconst b = [...a];\nfunction step(): number { return b[0]!; }`, /spread/],
    ['Math.random called through call()', `const r = Math.random.call(undefined);\nfunction step(): number { return r > 0.5 ? 1 : 0; }`, /call at the top level/],
    ['a class named like a built-in, whose static getter runs at load time', `const C = class JSON { static get x(): any { let n = 0; return () => ++n; } static counter = JSON.x; };\nfunction step(): number { return (C as any).counter(); }`, /class named JSON/],
    ['a var declared again, converted at load time', `var X: any = class { static valueOf(): number { let n = 0; (this as any).counter = () => ++n; return 1; } };\nvar X: any;\nconst ONE = X + 0;\nfunction step(): number { return X.counter() + ONE; }`, /X is converted at load time/],
  ];
  for (const [what, code, reason] of fresh) {
    it(`runs the module per episode for ${what}`, async () => {
      const p = await plan(code);
      assert.equal(p.reuse, false);
      if (!p.reuse) assert.match(p.reason, reason);
    });
  }
});
