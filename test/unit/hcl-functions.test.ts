/**
 * The .tf evaluator (core/src/terraform/hcl-values.ts, hcl-functions.ts, hcl-convert.ts, hcl-operators.ts): each
 * function, conversion and operator over known values as Terraform gives them; an unknown operand makes the result
 * unknown with why; what Terraform refuses is unknown with what is wrong. Expressions are parsed by the HCL parser
 * the CLI loads.
 */
import * as assert from 'node:assert/strict';
import type { Node } from 'jsonc-parser';
import type { HclParse } from '../../core/src';
import { convert, HclError, toValue, typeText, type TypeSpec, type Value } from '../../core/src/terraform/hcl-convert';
import { evaluate, named, type Why } from '../../core/src/terraform/hcl-values';
import { loadHclParser } from '../../protocol/src/hcl-parser';

let parse: HclParse;
before(async () => {
  parse = await loadHclParser();
});

const node = (v: Value): Node => {
  if (Array.isArray(v)) return { type: 'array', offset: 0, length: 0, children: v.map(node) } as Node;
  if (v !== null && typeof v === 'object')
    return {
      type: 'object',
      offset: 0,
      length: 0,
      children: Object.entries(v).map(
        ([k, x]) =>
          ({ type: 'property', offset: 0, length: 0, children: [{ type: 'string', value: k, offset: 0, length: 0 }, node(x)] }) as Node,
      ),
    } as Node;
  return { type: v === null ? 'null' : typeof v, value: v, offset: 0, length: 0 } as Node;
};

/** The value of one expression, with variables given (undefined: a variable without a value), and why. */
function ev(expr: string, vars: Record<string, Value | undefined> = {}, count?: number): { value: Value | undefined; why: Why[] } {
  const text = `v = ${expr}\n`;
  const root = parse(text)!.rootNode;
  const body = named(root).find((c) => c.type === 'body')!;
  const e = named(named(body)[0]).find((c) => c.type === 'expression')!;
  const why: Why[] = [];
  const scope = {
    vars: new Map(Object.entries(vars).map(([k, v]) => [k, v === undefined ? undefined : node(v)])),
    locals: new Map(),
    localBase: new Map(),
    base: 0,
    why,
    count,
  };
  const v = evaluate(e, scope);
  return { value: v && toValue(v), why };
}
const val = (expr: string, vars: Record<string, Value | undefined> = {}, count?: number) => ev(expr, vars, count).value;

describe('the .tf evaluator: functions over known values', () => {
  const cases: Array<[string, Value]> = [
    ['length([1, 2, 3])', 3],
    ['length({ a = 1 })', 1],
    ['length("héllo")', 5],
    ['toset(["b", "a", "b"])', ['a', 'b']],
    ['toset([3, 1, 3])', [1, 3]],
    ['tolist(["a"])', ['a']],
    ['tomap({ a = 1 })', { a: 1 }],
    ['keys({ b = 1, a = 2 })', ['a', 'b']],
    ['values({ b = 1, a = 2 })', [2, 1]],
    ['lookup({ a = 1 }, "a")', 1],
    ['lookup({ a = 1 }, "b", 9)', 9],
    ['merge({ a = 1, b = 1 }, { b = 2 }, null)', { a: 1, b: 2 }],
    ['concat([1], [2, 3], [])', [1, 2, 3]],
    ['flatten([[1], [2, [3]], []])', [1, 2, 3]],
    ['range(3)', [0, 1, 2]],
    ['range(1, 4)', [1, 2, 3]],
    ['range(6, 0, -2)', [6, 4, 2]],
    ['coalesce(null, "", "z")', 'z'],
    ['coalesce(null, 4)', 4],
    ['try(lookup({}, "a"), 7)', 7],
    ['try({ a = 1 }.b, { a = 1 }.a)', 1],
    ['can(tonumber("abc"))', false],
    ['can(tonumber("12"))', true],
    ['element(["a", "b", "c"], 4)', 'b'],
    ['floor(7 / 2)', 3],
    ['ceil(7 / 2)', 4],
    ['min(3, "1", 2)', 1],
    ['max(3, "10", 2)', 10],
    ['format("%s-%03d", "vm", 7)', 'vm-007'],
    ['format("%v/%v %d%%", "a", 2, 50)', 'a/2 50%'],
    ['join("-", ["a", "b"], ["c"])', 'a-b-c'],
    ['split(",", "a,b,,c")', ['a', 'b', '', 'c']],
    ['tonumber("3.5")', 3.5],
    ['tostring(12)', '12'],
    ['tostring(true)', 'true'],
    ['tobool("false")', false],
    ['contains(["a", "b"], "b")', true],
    ['contains([1], "1")', false],
    ['compact(["a", "", null])', ['a']],
    ['distinct([1, 2, 1])', [1, 2]],
    ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
    ['slice([1, 2, 3, 4], 1, 3)', [2, 3]],
    ['replace("a-b-c", "-", "_")', 'a_b_c'],
    ['substr("abcdef", 1, 3)', 'bcd'],
    ['lower("ABC")', 'abc'],
    ['max([1, 5, 2]...)', 5],
  ];
  for (const [expr, want] of cases) it(`${expr} is ${JSON.stringify(want)}`, () => assert.deepEqual(val(expr), want));

  const refused: Array<[string, RegExp]> = [
    ['tonumber("abc")', /"abc" is not a number/],
    ['tobool("yes")', /"yes" is not a bool/],
    ['lookup({ a = 1 }, "b")', /no key "b"/],
    ['element([], 0)', /empty list/],
    ['coalesce(null, "")', /no argument/],
    ['try(tonumber("x"), tobool("y"))', /try\(\) has no argument that is valid/],
    ['format("%d", 1.5)', /whole number/],
    ['range(0, 5, 0)', /wrong way/],
    ['length(3)', /needs a map or an object, not 3/],
  ];
  for (const [expr, why] of refused)
    it(`${expr} is refused, and why says so`, () => {
      const r = ev(expr);
      assert.equal(r.value, undefined);
      assert.ok(r.why[0]?.error, JSON.stringify(r.why));
      assert.match(r.why[0].text, why);
    });

  it('an unknown argument makes the call unknown (not an error), and why names the input', () => {
    for (const expr of ['length(var.x)', 'max(1, var.x)', 'format("%s", var.x)', 'element(["a"], var.x)']) {
      const r = ev(expr, { x: undefined });
      assert.equal(r.value, undefined, expr);
      assert.deepEqual(r.why, [{ text: 'var.x has no value', action: 'set var.x with -var or a .tfvars file' }], expr);
    }
  });

  it('try: an argument Terraform refuses is passed over; an unknown one before a valid one keeps it unknown, as at plan', () => {
    assert.equal(val('try(tonumber("x"), var.n)', { n: 4 }), 4);
    assert.equal(val('try(var.x, 4)', { x: undefined }), undefined);
    assert.equal(val('can(var.x)', { x: undefined }), undefined);
  });

  it('a function not evaluated here is unknown and says which', () => {
    const r = ev('cidrsubnet("10.0.0.0/8", 8, 2)');
    assert.equal(r.value, undefined);
    assert.match(r.why[0].text, /cidrsubnet\(\) is not evaluated here/);
  });
});

describe('the .tf evaluator: conversions, operators, conditionals, for and splat', () => {
  it('string ↔ number ↔ bool where Terraform converts', () => {
    assert.equal(val('var.s + 1', { s: '3' }), 4);
    assert.equal(val('var.s * 2', { s: '1.5' }), 3);
    assert.equal(val('!var.b', { b: 'true' }), false);
    assert.equal(val('var.b ? 1 : 0', { b: 'false' }), 0);
    assert.equal(val('"n-${var.n}"', { n: 3 }), 'n-3');
    assert.equal(val('"${var.n}"', { n: 3 }), 3);
    assert.equal(val('"1" == 1'), false);
    const r = ev('var.s + 1', { s: 'three' });
    assert.equal(r.value, undefined);
    assert.deepEqual(r.why, [{ text: '"three" is not a number', error: true }]);
  });

  it('arithmetic, comparison and logic', () => {
    assert.equal(val('1 + 2 * 3'), 7);
    assert.equal(val('(1 + 2) * 3'), 9);
    assert.equal(val('7 % 3'), 1);
    assert.equal(val('-var.n', { n: 2 }), -2);
    assert.equal(val('var.n >= 2 && var.n < 3', { n: 2 }), true);
    assert.equal(val('var.a == null || var.a == ""', { a: null }), true);
    assert.equal(val('[1, 2] == [1, 2]'), true);
    assert.equal(val('{ a = 1 } != { a = 1 }'), false);
    assert.equal(ev('1 / 0').why[0]?.text, 'division by zero');
  });

  it('a conditional evaluates the branch its condition picks; an unknown condition is unknown', () => {
    assert.equal(val('var.create ? 1 : 0', { create: true }), 1);
    assert.equal(val('var.create && var.other ? 1 : 0', { create: false, other: undefined }), 0);
    assert.equal(val('var.n > 0 ? var.n : tonumber("x")', { n: 2 }), 2);
    const r = ev('var.create ? 1 : 0', { create: undefined });
    assert.equal(r.value, undefined);
    assert.equal(r.why[0].action, 'set var.create with -var or a .tfvars file');
  });

  it('for expressions over known lists and maps, with a condition and grouping', () => {
    assert.deepEqual(val('[for x in [1, 2, 3] : x * 10 if x != 2]'), [10, 30]);
    assert.deepEqual(val('[for i, x in ["a", "b"] : "${i}${x}"]'), ['0a', '1b']);
    assert.deepEqual(val('{ for k, v in { a = 1, b = 2 } : v => k }'), { '1': 'a', '2': 'b' });
    assert.deepEqual(val('{ for x in ["a", "b", "a"] : x => 1... }'), { a: [1, 1], b: [1] });
    assert.equal(ev('{ for x in ["a", "a"] : x => 1 }').why[0]?.error, true);
    assert.equal(val('[for x in var.l : x]', { l: undefined }), undefined);
  });

  it('splat and index arithmetic', () => {
    assert.deepEqual(val('var.l[*].size', { l: [{ size: 1 }, { size: 2 }] }), [1, 2]);
    assert.deepEqual(val('var.l.*.size', { l: [{ size: 1 }] }), [1]);
    assert.deepEqual(val('var.o[*].size', { o: { size: 5 } }), [5]);
    assert.equal(val('var.l[floor(count.index / 2)]', { l: ['a', 'b'] }, 3), 'b');
    assert.equal(val('var.l[count.index % 2]', { l: ['a', 'b'] }, 3), 'b');
    assert.equal(val('element(var.l, count.index)', { l: ['a', 'b'] }, 2), 'a');
    assert.match(ev('var.l[5]', { l: ['a'] }).why[0].text, /index 5 is out of the list/);
  });

  it('references to what is known only later say so, never guess', () => {
    assert.match(ev('data.google_compute_zones.up.names').why[0].text, /data\.google_compute_zones\.up is read only at plan/);
    assert.match(ev('aws_instance.a.id').why[0].text, /aws_instance\.a\.id is known only after apply/);
    assert.match(ev('module.net.id').why[0].text, /module\.net's outputs are known only at plan/);
    assert.match(ev('count.index').why[0].text, /count\.index is known only in a block with count/);
  });
});

describe("the .tf evaluator: a value converted to a variable's declared type", () => {
  const ok: Array<[Value, TypeSpec, Value]> = [
    ['3', 'number', 3],
    [3, 'string', '3'],
    [true, 'string', 'true'],
    ['true', 'bool', true],
    [['1', 2], { list: 'number' }, [1, 2]],
    [['b', 'a', 'b'], { set: 'string' }, ['a', 'b']],
    [{ a: '1' }, { map: 'number' }, { a: 1 }],
    [
      { size: '10', extra: 1 },
      { object: { size: { type: 'number', optional: false }, iops: { type: 'number', optional: true, default: 3000 } } },
      { size: 10, iops: 3000 },
    ],
    [null, 'number', null],
    [{ a: [1] }, 'any', { a: [1] }],
  ];
  for (const [v, t, want] of ok)
    it(`${JSON.stringify(v)} as ${typeText(t)} is ${JSON.stringify(want)}`, () => assert.deepEqual(convert(v, t), want));

  const refused: Array<[Value, TypeSpec, RegExp]> = [
    ['abc', 'number', /"abc" is not a number/],
    ['yes', 'bool', /"yes" is not a bool/],
    [1, 'bool', /1 is not a bool/],
    [[1], 'string', /a list is not a string/],
    [{}, { object: { size: { type: 'number', optional: false } } }, /attribute "size" is required/],
  ];
  for (const [v, t, why] of refused)
    it(`${JSON.stringify(v)} as ${typeText(t)} is refused`, () =>
      assert.throws(
        () => convert(v, t),
        (e: Error) => e instanceof HclError && why.test(e.message),
      ));
});
