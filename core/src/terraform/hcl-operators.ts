/**
 * HCL's operators over known values, as Terraform applies them: arithmetic and ordering on numbers (a string of a
 * number converted), `==`/`!=` on any two values (no conversion: `"1" == 1` is false), `&&`/`||`/`!` on bools.
 * What Terraform refuses throws `HclError`.
 * See https://developer.hashicorp.com/terraform/language/expressions/operators
 */
import { equal, HclError, toBool, toNumber, type Value } from './hcl-convert';

function finite(n: number, op: string): number {
  if (!Number.isFinite(n)) throw new HclError(`${op} gives no finite number`);
  return n;
}

/** `a op b`. */
export function binary(op: string, a: Value, b: Value): Value {
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case '&&':
      return toBool(a) && toBool(b);
    case '||':
      return toBool(a) || toBool(b);
  }
  const [x, y] = [toNumber(a), toNumber(b)];
  switch (op) {
    case '+':
      return finite(x + y, op);
    case '-':
      return finite(x - y, op);
    case '*':
      return finite(x * y, op);
    case '/':
      if (y === 0) throw new HclError('division by zero');
      return finite(x / y, op);
    case '%':
      if (y === 0) throw new HclError('modulo by zero');
      return finite(x % y, op);
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    default:
      throw new HclError(`operator ${op} is not read here`);
  }
}

/** `-a` or `!a`. */
export function unary(op: string, a: Value): Value {
  if (op === '!') return !toBool(a);
  return finite(-toNumber(a), op);
}

/** The operator written between two operands (comments aside), or undefined. */
export function operatorIn(between: string): string | undefined {
  const text = between.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(?:#|\/\/)[^\n]*/g, '');
  return /==|!=|>=|<=|&&|\|\||[-+*/%<>]/.exec(text)?.[0];
}

/** For `&&` and `||`: the result known from the left operand alone (false && x, true || x), else undefined. */
export function shortCircuit(op: string, a: Value): boolean | undefined {
  if (op === '&&' && a === false) return false;
  if (op === '||' && a === true) return true;
  return undefined;
}
