/**
 * The expression language of filter and derive: parsed by jsep, restricted to a whitelist, then
 * type-checked against the columns into a typed tree that both the evaluator and the SQL compiler
 * read. Implicit conversions become explicit `convert` nodes so the two back ends cannot disagree on
 * where a conversion happens.
 */
import jsep from 'jsep';
import type { CanonicalType, ColumnSchema } from '../types.js';
import { normalizeInt } from './numbers.js';
import { grammarOf, parseTemporal } from './values.js';

jsep.addBinaryOp('and', 2);
jsep.addBinaryOp('or', 1);
jsep.addUnaryOp('not');

/** A mistake in an expression; the planner adds the step's path. */
export class ExpressionProblem extends Error {}

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';
export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';
type BinaryOperator = ArithmeticOperator | ComparisonOperator | 'and' | 'or';

/** name -> [fewest, most] arguments */
export const FUNCTIONS = {
  lower: [1, 1],
  upper: [1, 1],
  trim: [1, 1],
  length: [1, 1],
  concat: [1, Infinity],
  coalesce: [1, Infinity],
  substr: [2, 3],
  replace: [3, 3],
  round: [1, 2],
  abs: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  if: [3, 3],
  is_null: [1, 1],
  json_get: [2, 2],
} as const satisfies Record<string, readonly [number, number]>;
export type FunctionName = keyof typeof FUNCTIONS;

/** The parsed, whitelisted expression, before it meets any column. */
export type Expr =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'number'; raw: string; negative: boolean }
  | { kind: 'column'; name: string }
  | { kind: 'negate'; arg: Expr }
  | { kind: 'not'; arg: Expr }
  | { kind: 'binary'; op: BinaryOperator; left: Expr; right: Expr }
  | { kind: 'call'; name: FunctionName; args: Expr[] };

const BINARY_OPERATORS: Record<string, BinaryOperator> = {
  '+': '+',
  '-': '-',
  '*': '*',
  '/': '/',
  '%': '%',
  '==': '==',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '&&': 'and',
  and: 'and',
  '||': 'or',
  or: 'or',
};

export function parseExpression(text: string): Expr {
  let tree: jsep.Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    throw new ExpressionProblem(`syntax error: ${(error as Error).message}`);
  }
  return fromJsep(tree);
}

function fromJsep(node: jsep.Expression): Expr {
  switch (node.type) {
    case 'Literal': {
      const literal = node as jsep.Literal;
      if (literal.value === null) return { kind: 'null' };
      if (typeof literal.value === 'boolean') return { kind: 'boolean', value: literal.value };
      if (typeof literal.value === 'number') return { kind: 'number', raw: literal.raw, negative: false };
      if (typeof literal.value === 'string') {
        if (literal.value.includes('\u0000'))
          throw new ExpressionProblem('strings cannot contain the character U+0000');
        return { kind: 'string', value: literal.value };
      }
      throw new ExpressionProblem(`unsupported literal ${literal.raw}`);
    }
    case 'Identifier':
      return { kind: 'column', name: (node as jsep.Identifier).name };
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const arg = fromJsep(unary.argument);
      if (unary.operator === '-')
        return arg.kind === 'number' ? { ...arg, negative: !arg.negative } : { kind: 'negate', arg };
      if (unary.operator === '!' || unary.operator === 'not') return { kind: 'not', arg };
      throw new ExpressionProblem(`unsupported operator ${unary.operator}`);
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      const op = BINARY_OPERATORS[binary.operator];
      if (!op)
        throw new ExpressionProblem(
          `unsupported operator ${binary.operator}${binary.operator === '===' || binary.operator === '!==' ? ` (use ${binary.operator.slice(0, 2)})` : ''}`,
        );
      return { kind: 'binary', op, left: fromJsep(binary.left), right: fromJsep(binary.right) };
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      if (call.callee.type !== 'Identifier') throw new ExpressionProblem('only the listed functions can be called');
      const name = (call.callee as jsep.Identifier).name;
      const args = call.arguments.map(fromJsep);
      if (name === 'col') {
        const only = args[0];
        if (args.length !== 1 || only?.kind !== 'string')
          throw new ExpressionProblem("col() takes one string literal: col('column name')");
        return { kind: 'column', name: only.value };
      }
      if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, name))
        throw new ExpressionProblem(`unknown function ${name}()`);
      const functionName = name as FunctionName;
      const [fewest, most] = FUNCTIONS[functionName];
      if (args.length < fewest || args.length > most) {
        const expected =
          fewest === most ? `${fewest}` : most === Infinity ? `at least ${fewest}` : `${fewest} to ${most}`;
        throw new ExpressionProblem(
          `${name}() takes ${expected} argument${fewest === 1 && most === 1 ? '' : 's'}, got ${args.length}`,
        );
      }
      if (functionName === 'json_get' && args[1]!.kind !== 'string')
        throw new ExpressionProblem("json_get() takes the path as a string literal: json_get(doc, 'a.b')");
      return { kind: 'call', name: functionName, args };
    }
    case 'Compound':
      throw new ExpressionProblem(
        (node as jsep.Compound).body.length === 0 ? 'empty expression' : 'one expression expected',
      );
    case 'ConditionalExpression':
      throw new ExpressionProblem('unsupported syntax ?: (use if(condition, a, b))');
    case 'MemberExpression':
      throw new ExpressionProblem("unsupported syntax: member access (use col('name') or json_get(doc, 'a.b'))");
    default:
      throw new ExpressionProblem(`unsupported syntax (${node.type})`);
  }
}

/** Every column name an expression mentions. */
export function referencedColumns(expr: Expr, into = new Set<string>()): Set<string> {
  switch (expr.kind) {
    case 'column':
      into.add(expr.name);
      break;
    case 'negate':
    case 'not':
      referencedColumns(expr.arg, into);
      break;
    case 'binary':
      referencedColumns(expr.left, into);
      referencedColumns(expr.right, into);
      break;
    case 'call':
      for (const arg of expr.args) referencedColumns(arg, into);
      break;
    default:
      break;
  }
  return into;
}

// ---------------------------------------------------------------- typing

/** 'null': the untyped null literal, which takes the type its context needs. */
export type ExprType = CanonicalType | 'null';
export type CompareDomain = 'int' | 'float' | 'text' | 'temporal' | 'boolean';

/**
 * Values in a typed tree: int64 as number | bigint (exact), float as number, decimal and temporal as
 * their canonical strings, json parsed, binary as Buffer.
 */
export type Typed =
  | { kind: 'literal'; type: ExprType; value: unknown }
  | { kind: 'column'; type: CanonicalType; index: number; column: ColumnSchema }
  | { kind: 'convert'; type: CanonicalType; arg: Typed }
  | { kind: 'negate'; type: 'int64' | 'float64'; arg: Typed }
  | { kind: 'arithmetic'; type: 'int64' | 'float64'; op: ArithmeticOperator; left: Typed; right: Typed }
  | { kind: 'compare'; type: 'boolean'; op: ComparisonOperator; domain: CompareDomain; left: Typed; right: Typed }
  | { kind: 'logic'; type: 'boolean'; op: 'and' | 'or'; left: Typed; right: Typed }
  | { kind: 'not'; type: 'boolean'; arg: Typed }
  | { kind: 'call'; type: CanonicalType; name: FunctionName; args: Typed[] };

const INTEGER_TYPES = new Set<ExprType>(['int16', 'int32', 'int64']);
const NUMERIC_TYPES = new Set<ExprType>(['int16', 'int32', 'int64', 'float32', 'float64', 'decimal']);
const TEXT_TYPES = new Set<ExprType>(['string', 'uuid']);
const TEMPORAL_TYPES = new Set<ExprType>(['date', 'time', 'timestamp', 'timestamptz']);

export const isInteger = (type: ExprType) => INTEGER_TYPES.has(type);
export const isNumeric = (type: ExprType) => NUMERIC_TYPES.has(type);
export const isTextual = (type: ExprType) => TEXT_TYPES.has(type);
export const isTemporal = (type: ExprType) => TEMPORAL_TYPES.has(type);

const nullOf = (type: ExprType): Typed => ({ kind: 'literal', type, value: null });

/** `node` as a value of `type`, by the implicit conversions the language allows. */
function coerce(node: Typed, type: CanonicalType, what: string): Typed {
  if (node.type === type) return node;
  if (node.type === 'null') return nullOf(type);
  const from = node.type;
  const allowed =
    (type === 'int64' && isInteger(from)) ||
    (type === 'float64' && isNumeric(from)) ||
    (type === 'decimal' && isInteger(from)) ||
    (type === 'string' && from === 'uuid');
  if (allowed) return { kind: 'convert', type, arg: node };
  if (isTemporal(type) && node.kind === 'literal' && from === 'string')
    return { kind: 'literal', type, value: temporalLiteral(type, node.value as string) };
  throw new ExpressionProblem(`${what}: expected ${type}, got ${from}`);
}

function temporalLiteral(type: CanonicalType, text: string): string {
  if (!grammarOf(type)!.test(text))
    throw new ExpressionProblem(`'${text}' is not a ${type} (write ${TEMPORAL_EXAMPLES[type]})`);
  try {
    return parseTemporal(type as 'date', text);
  } catch (error) {
    throw new ExpressionProblem((error as Error).message);
  }
}

const TEMPORAL_EXAMPLES: Partial<Record<CanonicalType, string>> = {
  date: "'2024-01-31'",
  time: "'13:45:00'",
  timestamp: "'2024-01-31 13:45:00'",
  timestamptz: "'2024-01-31 13:45:00+00'",
};

/** The common type of values that meet (coalesce, if): numbers widen, text literals become dates where a date is expected. */
function unify(nodes: Typed[], what: string): Typed[] {
  const typed = nodes.filter((node) => node.type !== 'null');
  if (typed.length === 0) return nodes.map(() => nullOf('string'));
  const types = new Set(typed.map((node) => node.type as CanonicalType));
  let target: CanonicalType;
  if (types.size === 1) target = typed[0]!.type as CanonicalType;
  else if ([...types].every(isNumeric))
    target = [...types].every(isInteger)
      ? 'int64'
      : [...types].every((t) => isInteger(t) || t === 'decimal')
        ? 'decimal'
        : 'float64';
  else if ([...types].every(isTextual)) target = 'string';
  else {
    const temporal = [...types].filter(isTemporal);
    const literalsOnly = typed.every(
      (node) => isTemporal(node.type) || (node.kind === 'literal' && node.type === 'string'),
    );
    if (temporal.length !== 1 || !literalsOnly)
      throw new ExpressionProblem(`${what}: cannot mix ${[...types].join(' and ')}`);
    target = temporal[0]!;
  }
  return nodes.map((node) => coerce(node, target, what));
}

export interface TypeContext {
  columns: ColumnSchema[];
}

export function typecheck(expr: Expr, context: TypeContext): Typed {
  const typed = check(expr, context);
  return typed.type === 'null' ? nullOf('string') : typed;
}

function check(expr: Expr, context: TypeContext): Typed {
  switch (expr.kind) {
    case 'null':
      return nullOf('null');
    case 'boolean':
      return { kind: 'literal', type: 'boolean', value: expr.value };
    case 'string':
      return { kind: 'literal', type: 'string', value: expr.value };
    case 'number':
      return numberLiteral(expr.raw, expr.negative);
    case 'column': {
      const index = context.columns.findIndex((column) => column.name === expr.name);
      if (index < 0) throw new ExpressionProblem(`unknown column "${expr.name}"`);
      const column = context.columns[index]!;
      return { kind: 'column', type: column.type, index, column };
    }
    case 'negate': {
      const arg = check(expr.arg, context);
      if (arg.type === 'null') return nullOf('int64');
      if (!isNumeric(arg.type)) throw new ExpressionProblem(`unary -: expected a number, got ${arg.type}`);
      const type = isInteger(arg.type) ? 'int64' : 'float64';
      return { kind: 'negate', type, arg: coerce(arg, type, 'unary -') };
    }
    case 'not':
      return { kind: 'not', type: 'boolean', arg: coerce(check(expr.arg, context), 'boolean', 'not') };
    case 'binary':
      return checkBinary(expr.op, check(expr.left, context), check(expr.right, context));
    case 'call':
      return checkCall(expr.name, expr.args, context);
  }
}

function numberLiteral(raw: string, negative: boolean): Typed {
  if (/^[0-9]+$/.test(raw)) {
    const value = negative ? -BigInt(raw) : BigInt(raw);
    try {
      return { kind: 'literal', type: 'int64', value: normalizeInt(value) };
    } catch {
      throw new ExpressionProblem(
        `integer ${negative ? '-' : ''}${raw} is out of range for int64 (write it as ${negative ? '-' : ''}${raw}.0 for a float)`,
      );
    }
  }
  const value = Number(raw) * (negative ? -1 : 1);
  if (!Number.isFinite(value)) throw new ExpressionProblem(`number ${raw} is out of range`);
  return { kind: 'literal', type: 'float64', value };
}

function checkBinary(op: BinaryOperator, left: Typed, right: Typed): Typed {
  if (op === 'and' || op === 'or')
    return {
      kind: 'logic',
      type: 'boolean',
      op,
      left: coerce(left, 'boolean', op),
      right: coerce(right, 'boolean', op),
    };
  if (left.type === 'null' && right.type !== 'null') left = nullOf(right.type);
  if (right.type === 'null' && left.type !== 'null') right = nullOf(left.type);
  const l = left.type;
  const r = right.type;
  if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%') {
    if (l === 'null') return nullOf(op === '/' ? 'float64' : 'int64');
    if (!isNumeric(l) || !isNumeric(r)) throw new ExpressionProblem(`${op}: expected numbers, got ${l} and ${r}`);
    const integers = isInteger(l) && isInteger(r);
    if (op === '%' && !integers)
      throw new ExpressionProblem(
        `%: expected integers, got ${l} and ${r} (the remainder of non-integers is not supported)`,
      );
    const type = op !== '/' && integers ? 'int64' : 'float64';
    return { kind: 'arithmetic', type, op, left: coerce(left, type, op), right: coerce(right, type, op) };
  }
  const compare = (domain: CompareDomain, type: CanonicalType): Typed => ({
    kind: 'compare',
    type: 'boolean',
    op,
    domain,
    left: coerce(left, type, op),
    right: coerce(right, type, op),
  });
  if (l === 'null') return nullOf('boolean');
  if (isNumeric(l) && isNumeric(r))
    return isInteger(l) && isInteger(r) ? compare('int', 'int64') : compare('float', 'float64');
  if (isTextual(l) && isTextual(r)) return compare('text', 'string');
  if (l === 'boolean' && r === 'boolean') return compare('boolean', 'boolean');
  if (isTemporal(l) && (r === l || (right.kind === 'literal' && r === 'string')))
    return compare('temporal', l as CanonicalType);
  if (isTemporal(r) && left.kind === 'literal' && l === 'string') return compare('temporal', r as CanonicalType);
  throw new ExpressionProblem(`${op}: cannot compare ${l} with ${r}`);
}

function checkCall(name: FunctionName, exprs: Expr[], context: TypeContext): Typed {
  const args = exprs.map((arg) => check(arg, context));
  const call = (type: CanonicalType, typedArgs: Typed[]): Typed => ({ kind: 'call', type, name, args: typedArgs });
  const textual = (node: Typed, position: number) => {
    if (node.type !== 'null' && !isTextual(node.type))
      throw new ExpressionProblem(`${name}() argument ${position}: expected text, got ${node.type}`);
    return coerce(node, 'string', `${name}()`);
  };
  const integer = (node: Typed, position: number) => {
    if (node.type !== 'null' && !isInteger(node.type))
      throw new ExpressionProblem(`${name}() argument ${position}: expected an integer, got ${node.type}`);
    return coerce(node, 'int64', `${name}()`);
  };
  const numeric = (node: Typed) => {
    if (node.type !== 'null' && !isNumeric(node.type))
      throw new ExpressionProblem(`${name}() expects a number, got ${node.type}`);
    return node.type === 'null' ? nullOf('float64') : node;
  };
  switch (name) {
    case 'lower':
    case 'upper':
    case 'trim':
      return call('string', [textual(args[0]!, 1)]);
    case 'length':
      return call('int64', [textual(args[0]!, 1)]);
    case 'concat':
      return call(
        'string',
        args.map((arg) =>
          arg.type === 'null'
            ? nullOf('string')
            : arg.type === 'string'
              ? arg
              : ({ kind: 'convert', type: 'string', arg } as Typed),
        ),
      );
    case 'coalesce': {
      const unified = unify(args, 'coalesce()');
      return call(unified[0]!.type as CanonicalType, unified);
    }
    case 'substr':
      return call('string', [textual(args[0]!, 1), ...args.slice(1).map((arg, i) => integer(arg, i + 2))]);
    case 'replace':
      return call('string', args.map(textual));
    case 'round':
      return call('float64', [numeric(args[0]!), ...args.slice(1).map((arg) => integer(arg, 2))]);
    case 'abs':
    case 'floor':
    case 'ceil': {
      const arg = numeric(args[0]!);
      const type = isInteger(arg.type) ? 'int64' : 'float64';
      return call(type, [coerce(arg, type, `${name}()`)]);
    }
    case 'if': {
      const [whenTrue, whenFalse] = unify(args.slice(1), 'if()');
      return call(whenTrue!.type as CanonicalType, [
        coerce(args[0]!, 'boolean', 'if() condition'),
        whenTrue!,
        whenFalse!,
      ]);
    }
    case 'is_null':
      return call('boolean', [args[0]!.type === 'null' ? nullOf('string') : args[0]!]);
    case 'json_get':
      if (args[0]!.type !== 'null' && args[0]!.type !== 'json')
        throw new ExpressionProblem(`json_get() argument 1: expected json, got ${args[0]!.type}`);
      return call('string', [coerce(args[0]!, 'json', 'json_get()'), args[1]!]);
  }
}
