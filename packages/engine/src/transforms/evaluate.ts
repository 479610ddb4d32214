/**
 * Typed expressions -> closures over a row, compiled once per plan (no eval). Strict operators and
 * functions evaluate every argument before looking at nulls, and and/or/if/coalesce are lazy, as
 * PostgreSQL's executor is: an error is raised in the same rows on both paths.
 */
import { jsonOperand, type CanonicalType } from '../types.js';
import { EvaluationFailure } from './steps.js';
import { ExpressionProblem, type CompareDomain, type ComparisonOperator, type Typed } from './expression.js';
import {
  decimalToFloat,
  floatAdd,
  floatCompare,
  floatDivide,
  floatMultiply,
  floatSubtract,
  intAbs,
  intAdd,
  intModulo,
  intMultiply,
  intNegate,
  intSubtract,
  plainNumber,
  roundDecimalText,
  toInt,
  toInt32,
  type Int,
} from './numbers.js';
import {
  codePointLength,
  compareTemporal,
  compareText,
  jsonAt,
  jsonLeafText,
  replaceAll,
  substring,
  textFormOf,
  trimSpaces,
} from './values.js';

export type Evaluator = (row: readonly unknown[]) => unknown;

export function compile(node: Typed): Evaluator {
  switch (node.kind) {
    case 'literal': {
      const value = node.value;
      return () => value;
    }
    case 'column': {
      const index = node.index;
      if (node.type === 'int64') {
        return (row) => {
          const value = row[index];
          return value == null ? null : toInt(value);
        };
      }
      // A json column from a SQL source holds its text: expressions see the parsed document.
      if (node.type === 'json') return (row) => jsonOperand(row[index]) ?? null;
      return (row) => row[index] ?? null;
    }
    case 'convert': {
      const arg = compile(node.arg);
      const from = node.arg.type as CanonicalType;
      // In process, int16/int32 already are int64 values and a float32 is a float64 number.
      if (node.type === 'int64' || (node.type === 'float64' && from === 'float32')) return arg;
      const convert = converter(from, node.type);
      return (row) => {
        const value = arg(row);
        return value == null ? null : convert(value);
      };
    }
    case 'negate': {
      const arg = compile(node.arg);
      const negate =
        node.type === 'int64' ? (value: unknown) => intNegate(value as Int) : (value: unknown) => -(value as number);
      return (row) => {
        const value = arg(row);
        return value == null ? null : negate(value);
      };
    }
    case 'arithmetic':
      return binary(node.left, node.right, arithmetic(node.type, node.op));
    case 'compare':
      return binary(node.left, node.right, comparison(node.domain, node.op));
    case 'logic': {
      const left = compile(node.left);
      const right = compile(node.right);
      // Kleene logic, left to right, stopping where the result is known (PostgreSQL's AND/OR do the same).
      const decisive = node.op === 'or';
      return (row) => {
        const a = left(row);
        if (a === decisive) return decisive;
        const b = right(row);
        if (b === decisive) return decisive;
        return a == null || b == null ? null : !decisive;
      };
    }
    case 'not': {
      const arg = compile(node.arg);
      return (row) => {
        const value = arg(row);
        return value == null ? null : !value;
      };
    }
    case 'call':
      return compileCall(node);
  }
}

/** A strict binary operator; a literal operand (common: `qty > 2`) is read once instead of per row. */
function binary(leftNode: Typed, rightNode: Typed, operate: (a: never, b: never) => unknown): Evaluator {
  if (rightNode.kind === 'literal' && rightNode.value !== null) {
    const left = compile(leftNode);
    const b = rightNode.value as never;
    return (row) => {
      const a = left(row);
      return a == null ? null : operate(a as never, b);
    };
  }
  if (leftNode.kind === 'literal' && leftNode.value !== null) {
    const right = compile(rightNode);
    const a = leftNode.value as never;
    return (row) => {
      const b = right(row);
      return b == null ? null : operate(a, b as never);
    };
  }
  return strict2(compile(leftNode), compile(rightNode), operate);
}

function strict2(left: Evaluator, right: Evaluator, operate: (a: never, b: never) => unknown): Evaluator {
  return (row) => {
    const a = left(row);
    const b = right(row);
    return a == null || b == null ? null : operate(a as never, b as never);
  };
}

function converter(from: CanonicalType, to: CanonicalType): (value: unknown) => unknown {
  switch (to) {
    case 'int64':
      return (value) => value; // int16/int32 are already numbers
    case 'float64':
      if (from === 'decimal') return (value) => decimalToFloat(value as string);
      if (from === 'float32') return (value) => value;
      return (value) => Number(value as Int);
    case 'decimal':
      return (value) => String(value);
    case 'string':
      return textFormOf(from);
    default:
      throw new Error(`no implicit conversion from ${from} to ${to}`);
  }
}

function arithmetic(type: 'int64' | 'float64', op: string): (a: never, b: never) => unknown {
  if (type === 'int64') {
    switch (op) {
      case '+':
        return intAdd;
      case '-':
        return intSubtract;
      case '*':
        return intMultiply;
      default:
        return intModulo;
    }
  }
  switch (op) {
    case '+':
      return floatAdd;
    case '-':
      return floatSubtract;
    case '*':
      return floatMultiply;
    default:
      return floatDivide;
  }
}

function comparison(domain: CompareDomain, op: ComparisonOperator): (a: never, b: never) => boolean {
  if (domain === 'int' || domain === 'boolean') {
    // Ints are normalised (bigint only beyond the safe range), so === is exact; < works across number and bigint.
    switch (op) {
      case '==':
        return (a: Int, b: Int) => a === b;
      case '!=':
        return (a: Int, b: Int) => a !== b;
      case '<':
        return (a: Int, b: Int) => a < b;
      case '<=':
        return (a: Int, b: Int) => a <= b;
      case '>':
        return (a: Int, b: Int) => a > b;
      case '>=':
        return (a: Int, b: Int) => a >= b;
    }
  }
  if (domain === 'float') {
    switch (op) {
      case '==':
        return (a: number, b: number) => a === b || (a !== a && b !== b);
      case '!=':
        return (a: number, b: number) => !(a === b || (a !== a && b !== b));
      case '<':
        return (a: number, b: number) => a < b || (b !== b && a === a);
      case '<=':
        return (a: number, b: number) => floatCompare(a, b) <= 0;
      case '>':
        return (a: number, b: number) => a > b || (a !== a && b === b);
      case '>=':
        return (a: number, b: number) => floatCompare(a, b) >= 0;
    }
  }
  const compare = domain === 'text' ? compareText : compareTemporal;
  switch (op) {
    case '==':
      return (a: string, b: string) => a === b;
    case '!=':
      return (a: string, b: string) => a !== b;
    case '<':
      return (a: string, b: string) => compare(a, b) < 0;
    case '<=':
      return (a: string, b: string) => compare(a, b) <= 0;
    case '>':
      return (a: string, b: string) => compare(a, b) > 0;
    case '>=':
      return (a: string, b: string) => compare(a, b) >= 0;
  }
}

function strict1(arg: Evaluator, operate: (value: never) => unknown): Evaluator {
  return (row) => {
    const value = arg(row);
    return value == null ? null : operate(value as never);
  };
}

/** round() works on the decimal text of its argument, like round(x::numeric) in PostgreSQL. */
function decimalTextOf(type: string): (value: unknown) => string {
  if (type === 'decimal') return (value) => value as string;
  if (type === 'float32' || type === 'float64')
    return (value) => (Number.isFinite(value) ? plainNumber(value as number) : String(value));
  return (value) => String(value);
}

function compileCall(node: Extract<Typed, { kind: 'call' }>): Evaluator {
  const args = node.args.map(compile);
  const [first, second, third] = args as [Evaluator, Evaluator | undefined, Evaluator | undefined];
  switch (node.name) {
    case 'lower':
      return strict1(first, (value: string) => value.toLowerCase());
    case 'upper':
      return strict1(first, (value: string) => value.toUpperCase());
    case 'trim':
      return strict1(first, trimSpaces);
    case 'length':
      return strict1(first, codePointLength);
    case 'concat':
      return (row) => {
        let out = '';
        for (const arg of args) out += (arg(row) as string | null) ?? '';
        return out;
      };
    case 'coalesce':
      return (row) => {
        for (const arg of args) {
          const value = arg(row);
          if (value != null) return value;
        }
        return null;
      };
    case 'substr':
      if (!third) return strict2(first, second!, (text: string, start: Int) => substring(text, toInt32(start)));
      return (row) => {
        const text = first(row);
        const start = second!(row);
        const length = third(row);
        return text == null || start == null || length == null
          ? null
          : substring(text as string, toInt32(start as Int), toInt32(length as Int));
      };
    case 'replace':
      return (row) => {
        const text = first(row);
        const from = second!(row);
        const to = third!(row);
        return text == null || from == null || to == null
          ? null
          : replaceAll(text as string, from as string, to as string);
      };
    case 'round': {
      const textOf = decimalTextOf(node.args[0]!.type);
      if (!second) return strict1(first, (value) => decimalToFloat(roundDecimalText(textOf(value), 0)));
      return strict2(first, second, (value, digits: Int) =>
        decimalToFloat(roundDecimalText(textOf(value), toInt32(digits))),
      );
    }
    case 'abs':
      return node.type === 'int64' ? strict1(first, intAbs) : strict1(first, Math.abs);
    case 'floor':
      return node.type === 'int64' ? first : strict1(first, Math.floor);
    case 'ceil':
      return node.type === 'int64' ? first : strict1(first, Math.ceil);
    case 'if':
      return (row) => (first(row) === true ? second!(row) : third!(row));
    case 'is_null':
      return (row) => first(row) == null;
    case 'json_get': {
      const path = (node.args[1] as Extract<Typed, { kind: 'literal' }>).value as string;
      const segments = path.split('.');
      return strict1(first, (doc) => jsonLeafText(jsonAt(doc, segments)));
    }
  }
}

// ---------------------------------------------------------------- constant folding

const literal = (type: Typed['type'], value: unknown): Typed => ({ kind: 'literal', type, value });
const isLiteral = (node: Typed): node is Extract<Typed, { kind: 'literal' }> => node.kind === 'literal';

/**
 * Evaluates constant parts once, at plan time. Both paths then run the folded tree, so a constant
 * that fails (1/0) fails the plan instead of failing only where a row reaches it. Branches a constant
 * condition rules out are dropped unevaluated, as PostgreSQL's planner does.
 */
export function fold(node: Typed): Typed {
  switch (node.kind) {
    case 'literal':
    case 'column':
      return node;
    case 'logic': {
      const left = fold(node.left);
      if (isLiteral(left) && left.value === (node.op === 'or')) return literal('boolean', left.value);
      return constant({ ...node, left, right: fold(node.right) });
    }
    case 'call': {
      if (node.name === 'if') {
        const condition = fold(node.args[0]!);
        if (isLiteral(condition)) return fold(node.args[condition.value === true ? 1 : 2]!);
        return { ...node, args: [condition, fold(node.args[1]!), fold(node.args[2]!)] };
      }
      if (node.name === 'coalesce') {
        const args: Typed[] = [];
        for (const arg of node.args) {
          const folded = fold(arg);
          if (isLiteral(folded) && folded.value === null) continue;
          args.push(folded);
          if (isLiteral(folded)) break;
        }
        if (args.length === 0) return literal(node.type, null);
        if (args.length === 1 && isLiteral(args[0]!)) return args[0]!;
        return { ...node, args };
      }
      return constant({ ...node, args: node.args.map(fold) });
    }
    case 'convert':
    case 'negate':
    case 'not':
      return constant({ ...node, arg: fold(node.arg) } as Typed);
    case 'arithmetic':
    case 'compare':
      return constant({ ...node, left: fold(node.left), right: fold(node.right) } as Typed);
  }
}

/** The node itself, or its value when every input is a literal. */
function constant(node: Typed): Typed {
  const inputs =
    node.kind === 'call'
      ? node.args
      : node.kind === 'convert' || node.kind === 'negate' || node.kind === 'not'
        ? [node.arg]
        : node.kind === 'arithmetic' || node.kind === 'compare' || node.kind === 'logic'
          ? [node.left, node.right]
          : [];
  if (!inputs.every(isLiteral)) return node;
  try {
    return literal(node.type, compile(node)([]));
  } catch (error) {
    if (error instanceof EvaluationFailure)
      throw new ExpressionProblem(`${error.message} (in a constant part of the expression)`);
    throw error;
  }
}
