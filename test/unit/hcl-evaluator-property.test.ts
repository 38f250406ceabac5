/**
 * The .tf evaluator never throws (core/src/terraform/hcl-values.ts): on generated expressions of every kind it
 * reads (operators, conditionals, functions, for, splat, templates, references known and unknown), well or badly
 * typed, and on text the parser reads only in part, every expression node evaluates to a value or to unknown.
 * Seeded, so that a run is repeatable.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Node } from 'jsonc-parser';
import type { HclParse, HclSyntaxNode } from '../../core/src';
import { toValue, unknownsOf } from '../../core/src/terraform/hcl-convert';
import { FUNCTIONS } from '../../core/src/terraform/hcl-functions';
import { evaluate, named, type Scope } from '../../core/src/terraform/hcl-values';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

const atoms = fc.constantFrom(
  '0',
  '1',
  '3.5',
  '-2',
  '1e400',
  '"a"',
  '"3"',
  '"true"',
  '""',
  'true',
  'false',
  'null',
  'var.n',
  'var.s',
  'var.l',
  'var.m',
  'var.u',
  'var.missing',
  'local.a',
  'local.loop',
  'count.index',
  'each.key',
  'each.value',
  'data.x.y.z',
  'aws_instance.a[0].id',
  'module.m.out',
  'path.module',
  '"${var.n}-${var.u}"',
  '"%{ if true }x%{ endif }"',
);
const names = [...Object.keys(FUNCTIONS), 'try', 'can', 'nope', 'cidrsubnet'];
const ops = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||'];

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atoms,
    fc.tuple(tie('e'), fc.constantFrom(...ops), tie('e')).map(([a, o, b]) => `${a} ${o} ${b}`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
    fc.tuple(fc.constantFrom('!', '-'), tie('e')).map(([o, a]) => `${o}${a}`),
    fc
      .tuple(fc.constantFrom(...names), fc.array(tie('e'), { maxLength: 3 }), fc.boolean())
      .map(([f, args, spread]) => `${f}(${args.join(', ')}${spread && args.length ? '...' : ''})`),
    fc.array(tie('e'), { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
    fc
      .array(fc.tuple(fc.constantFrom('a', 'b', '"c"'), tie('e')), { maxLength: 3 })
      .map((kv) => `{ ${kv.map(([k, v]) => `${k} = ${v}`).join(', ')} }`),
    fc.tuple(tie('e'), tie('e')).map(([c, b]) => `[for i, x in ${c} : ${b} if x != null]`),
    fc.tuple(tie('e'), tie('e')).map(([c, b]) => `{ for k, v in ${c} : tostring(k) => ${b}... }`),
    fc.tuple(tie('e'), tie('e')).map(([a, i]) => `(${a})[${i}]`),
    tie('e').map((a) => `(${a})[*].size`),
    tie('e').map((a) => `(${a}).attr`),
    tie('e').map((a) => `"x-\${${a}}"`),
  ),
})).e;

const node = (type: string, value: unknown): Node => ({ type, value, offset: 0, length: 0 }) as Node;
const list = (...children: Node[]): Node => ({ type: 'array', offset: 0, length: 0, children }) as Node;

/** Whether a value holds a partly unknown object (Terraform's object of known keys, some values unknown). */
function partlyUnknown(n: Node): boolean {
  return (n.type === 'object' && unknownsOf(n) !== undefined) || (n.children ?? []).some(partlyUnknown);
}

function expressions(n: HclSyntaxNode, out: HclSyntaxNode[] = []): HclSyntaxNode[] {
  if (n.type === 'expression') out.push(n);
  for (const c of named(n)) expressions(c, out);
  return out;
}

describe('the .tf evaluator never throws', () => {
  it('on generated expressions: each is a value or unknown', () => {
    const localsText = 'a = var.n + 1\nloop = local.loop\n';
    const locals = named(named(parse(localsText)!.rootNode).find((c) => c.type === 'body')!);
    fc.assert(
      fc.property(expr, fc.integer({ min: 0, max: 3 }), (e, count) => {
        const text = `v = ${e}\n`;
        const tree = parse(text);
        assert.ok(tree);
        const scope: Scope = {
          vars: new Map<string, Node | undefined>([
            ['n', node('number', 2)],
            ['s', node('string', 'abc')],
            ['l', list(node('string', 'a'), node('number', 1))],
            ['m', node('null', null)],
            ['u', undefined],
          ]),
          locals: new Map(locals.map((a) => [named(a)[0].text, named(a).find((c) => c.type === 'expression')!])),
          localBase: new Map(),
          base: 0,
          count,
          each: { key: 'k', value: undefined },
          why: [],
        };
        for (const x of expressions(tree.rootNode)) {
          const v = evaluate(x, scope);
          // A value is plain, or holds an object whose keys are known and some of whose attributes are not.
          if (v) assert.ok(toValue(v) !== undefined || partlyUnknown(v), x.text);
        }
      }),
      { seed: 36, numRuns: 400 },
    );
  });
});
