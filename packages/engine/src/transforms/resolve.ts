/**
 * Resolves each step once against its input columns into column producers (closures over column
 * indexes, with their SQL), so the runner and the pushed-down SELECT cannot drift apart.
 */
import { jsonOperand, type CanonicalType, type ColumnSchema, type JsonValue, type Value } from '../types.js';
import { castRule, maskRule, textToRule, type ValueRule } from './casts.js';
import { compile, fold } from './evaluate.js';
import { ExpressionProblem, parseExpression, typecheck, type Typed } from './expression.js';
import { columnSql, expressionSql, pathArraySql, pgType } from './sql.js';
import { MAX_IDENTIFIER_BYTES, TransformError, type MaskMethod, type TransformStep } from './steps.js';
import { jsonAt, jsonLeafText } from './values.js';

/** One output column of a mapping step: an input column passed through, or a value computed from the input row. */
export type Producer =
  | { kind: 'pass'; source: number }
  | { kind: 'compute'; path: string; dependencies: number[]; js: ColumnProducer; sql: () => string };

/** Computes one output cell of a row, in the canonical representation of the column's type. */
export type ColumnProducer = (row: readonly Value[]) => Value;

export type Resolved =
  | { kind: 'map'; path: string; input: ColumnSchema[]; output: ColumnSchema[]; producers: Producer[] }
  | { kind: 'filter'; path: string; input: ColumnSchema[]; output: ColumnSchema[]; predicate: Typed }
  | {
      kind: 'dedupe';
      path: string;
      input: ColumnSchema[];
      output: ColumnSchema[];
      keys: number[];
      orderBy: number | null;
      keep: 'first' | 'last';
    };

// ---------------------------------------------------------------- resolving steps

const problem = (path: string, message: string) => new TransformError(path, message);

function indexOf(columns: ColumnSchema[], name: string, path: string): number {
  const index = columns.findIndex((column) => column.name === name);
  if (index < 0) throw problem(path, `unknown column "${name}"`);
  return index;
}

function checkNewName(name: string, path: string): void {
  if (Buffer.byteLength(name) > MAX_IDENTIFIER_BYTES)
    throw problem(path, `column name "${name}" is longer than ${MAX_IDENTIFIER_BYTES} bytes`);
}

function checkUnique(columns: ColumnSchema[], path: string): void {
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.name)) throw problem(path, `two columns would be named "${column.name}"`);
    seen.add(column.name);
  }
}

const pass = (source: number): Producer => ({ kind: 'pass', source });
const newColumn = (name: string, type: CanonicalType, nullable = true): ColumnSchema => ({
  name,
  type,
  sourceType: pgType(type),
  nullable,
});

export function resolveStep(
  step: TransformStep,
  i: number,
  columns: ColumnSchema[],
  sampleRows: () => Value[][],
): Resolved {
  const base = { path: String(i), input: columns };
  switch (step.type) {
    case 'select': {
      const sources = step.columns.map((name, j) => indexOf(columns, name, `${i}.columns.${j}`));
      return { ...base, kind: 'map', output: sources.map((s) => columns[s]!), producers: sources.map(pass) };
    }
    case 'drop': {
      const dropped = new Set(step.columns.map((name, j) => indexOf(columns, name, `${i}.columns.${j}`)));
      const sources = columns.map((_, j) => j).filter((j) => !dropped.has(j));
      return { ...base, kind: 'map', output: sources.map((s) => columns[s]!), producers: sources.map(pass) };
    }
    case 'rename': {
      const renames = new Map(Object.entries(step.columns));
      for (const [from, to] of renames) {
        indexOf(columns, from, `${i}.columns.${from}`);
        checkNewName(to, `${i}.columns.${from}`);
      }
      const output = columns.map((column) =>
        renames.has(column.name) ? { ...column, name: renames.get(column.name)! } : column,
      );
      for (const [from, to] of renames) {
        if (output.filter((column) => column.name === to).length > 1)
          throw problem(`${i}.columns.${from}`, `renaming "${from}" to "${to}" collides with another column`);
      }
      return { ...base, kind: 'map', output, producers: columns.map((_, j) => pass(j)) };
    }
    case 'cast': {
      const output = [...columns];
      const producers = columns.map((_, j) => pass(j));
      for (const [name, to] of Object.entries(step.columns)) {
        const path = `${i}.columns.${name}`;
        const j = indexOf(columns, name, path);
        const column = columns[j]!;
        if (column.type === to) continue;
        const rule = castRule(column.type, to, name);
        if (!rule) throw problem(path, `cannot cast column "${name}" from ${column.type} to ${to}`);
        output[j] = newColumn(name, to, column.nullable);
        producers[j] = ruleProducer(rule, j, column, path);
      }
      return { ...base, kind: 'map', output, producers };
    }
    case 'filter': {
      const predicate = expressionOf(step.expression, columns, `${i}.expression`);
      if (predicate.type !== 'boolean')
        throw problem(`${i}.expression`, `a filter needs a boolean expression, got ${predicate.type}`);
      return { ...base, kind: 'filter', output: columns, predicate };
    }
    case 'derive': {
      const path = `${i}.expression`;
      checkNewName(step.column, `${i}.column`);
      const typed = expressionOf(step.expression, columns, path);
      const type = typed.type as CanonicalType;
      const evaluate = compile(typed);
      // Evaluation works on exact integers (bigint) for int64: they leave as their digits. Any other
      // type evaluates to its canonical representation already.
      const js: ColumnProducer =
        type === 'int64'
          ? (row) => {
              const value = evaluate(row);
              return value == null ? null : String(value);
            }
          : (evaluate as ColumnProducer);
      const producer: Producer = {
        kind: 'compute',
        path,
        dependencies: dependenciesOf(typed),
        js,
        sql: () => `CAST(${expressionSql(typed, columns)} AS ${pgType(type)})`,
      };
      const existing = columns.findIndex((column) => column.name === step.column);
      const output = [...columns];
      const producers = columns.map((_, j) => pass(j));
      if (existing >= 0) {
        output[existing] = newColumn(step.column, type);
        producers[existing] = producer;
      } else {
        output.push(newColumn(step.column, type));
        producers.push(producer);
      }
      return { ...base, kind: 'map', output, producers };
    }
    case 'deduplicate': {
      const keys = step.keys.map((name, j) => indexOf(columns, name, `${i}.keys.${j}`));
      let orderBy: number | null = null;
      if (step.order_by !== undefined) {
        orderBy = indexOf(columns, step.order_by, `${i}.order_by`);
        const type = columns[orderBy]!.type;
        if (type === 'json' || type === 'binary') throw problem(`${i}.order_by`, `cannot order by a ${type} column`);
      }
      return { ...base, kind: 'dedupe', output: columns, keys, orderBy, keep: step.keep ?? 'first' };
    }
    case 'flatten':
      return resolveFlatten(step, i, columns, sampleRows);
    case 'mask':
      return { ...resolveMask(step.columns, columns, String(i), (name) => `${i}.columns.${name}`), input: columns };
  }
}

function expressionOf(text: string, columns: ColumnSchema[], path: string): Typed {
  try {
    return fold(typecheck(parseExpression(text), { columns }));
  } catch (error) {
    if (error instanceof ExpressionProblem) throw problem(path, error.message);
    throw error;
  }
}

export function dependenciesOf(node: Typed, into: number[] = []): number[] {
  switch (node.kind) {
    case 'column':
      into.push(node.index);
      break;
    case 'convert':
    case 'negate':
    case 'not':
      dependenciesOf(node.arg, into);
      break;
    case 'arithmetic':
    case 'compare':
    case 'logic':
      dependenciesOf(node.left, into);
      dependenciesOf(node.right, into);
      break;
    case 'call':
      for (const arg of node.args) dependenciesOf(arg, into);
      break;
    default:
      break;
  }
  return into;
}

/** A per-value rule over one input column: nulls stay null. */
function ruleProducer(rule: ValueRule, source: number, column: ColumnSchema, path: string): Producer {
  const convert = rule.js;
  return {
    kind: 'compute',
    path,
    dependencies: [source],
    js: (row) => {
      const value = jsonOperand(row[source]);
      return value == null ? null : convert(value as Value);
    },
    sql: () => rule.sql(columnSql(column)),
  };
}

export function resolveMask(
  masks: Record<string, MaskMethod>,
  columns: ColumnSchema[],
  path: string,
  columnPath: (name: string) => string,
): Resolved {
  const output = [...columns];
  const producers = columns.map((_, j) => pass(j));
  for (const [name, method] of Object.entries(masks)) {
    const j = indexOf(columns, name, columnPath(name));
    const column = columns[j]!;
    const rule = maskRule(method, column.type);
    output[j] = newColumn(name, rule.type);
    producers[j] = ruleProducer(rule, j, column, columnPath(name));
  }
  return { kind: 'map', path, input: columns, output, producers };
}

function resolveFlatten(
  step: Extract<TransformStep, { type: 'flatten' }>,
  i: number,
  columns: ColumnSchema[],
  sampleRows: () => Value[][],
): Resolved {
  const source = indexOf(columns, step.column, `${i}.column`);
  const column = columns[source]!;
  if (column.type !== 'json')
    throw problem(`${i}.column`, `flatten needs a json column, "${step.column}" is ${column.type}`);
  const separator = step.separator ?? '_';
  const docs = sampleRows().map((row) => jsonOperand(row[source]));
  const paths = step.paths ?? leafPaths(docs);
  if (paths.length === 0)
    throw problem(
      `${i}.column`,
      `no paths to flatten: the sample rows have no object in "${step.column}"; list the paths`,
    );
  const leaves = paths.map((path, j) => {
    const segments = path.split('.');
    const name = `${step.column}${separator}${segments.join(separator)}`;
    checkNewName(name, step.paths ? `${i}.paths.${j}` : `${i}.column`);
    const type = inferType(docs.map((doc) => jsonAt(doc, segments)));
    return { segments, name, type };
  });
  const output: ColumnSchema[] = [];
  const producers: Producer[] = [];
  columns.forEach((other, j) => {
    if (j !== source) {
      output.push(other);
      producers.push(pass(j));
      return;
    }
    if (step.keep_original) {
      output.push(other);
      producers.push(pass(j));
    }
    for (const leaf of leaves) {
      output.push(newColumn(leaf.name, leaf.type));
      producers.push(leafProducer(leaf, source, column, `${i}.column`));
    }
  });
  checkUnique(output, `${i}.column`);
  return { kind: 'map', path: String(i), input: columns, output, producers };
}

/** Every leaf path of the sample documents: objects are walked, arrays and scalars are leaves. */
function leafPaths(docs: unknown[]): string[] {
  const paths = new Set<string>();
  const walk = (value: unknown, prefix: string) => {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (key.includes('.') || key === '') continue; // not addressable by a dotted path
      const path = prefix ? `${prefix}.${key}` : key;
      if (child !== null && typeof child === 'object' && !Array.isArray(child)) walk(child, path);
      else paths.add(path);
    }
  };
  for (const doc of docs) if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) walk(doc, '');
  return [...paths].sort();
}

function inferType(values: unknown[]): CanonicalType {
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return 'string';
  if (present.every((value) => typeof value === 'number'))
    return present.every((value) => Number.isInteger(value)) ? 'int64' : 'float64';
  if (present.every((value) => typeof value === 'boolean')) return 'boolean';
  if (present.every((value) => typeof value === 'string')) return 'string';
  return 'json';
}

/** A JSON leaf as the flattened column's type: like `(doc #>> path)::type` (json: `doc #> path`). */
function leafProducer(
  leaf: { segments: string[]; name: string; type: CanonicalType },
  source: number,
  column: ColumnSchema,
  path: string,
): Producer {
  const { segments, name, type } = leaf;
  const text = textToRule(type, name);
  const fromText = (value: unknown) => {
    const leafText = jsonLeafText(value);
    return leafText === null ? null : text.js(leafText);
  };
  let convert: (value: JsonValue) => Value;
  switch (type) {
    case 'json':
      convert = (value) => value;
      break;
    case 'string':
      convert = jsonLeafText;
      break;
    case 'int64':
      convert = (value) =>
        typeof value === 'number' && Number.isSafeInteger(value) ? String(value + 0) : fromText(value);
      break;
    case 'float64':
      convert = (value) => (typeof value === 'number' ? value + 0 : fromText(value));
      break;
    default:
      convert = (value) => (typeof value === 'boolean' ? value : fromText(value));
  }
  const doc = columnSql(column);
  return {
    kind: 'compute',
    path,
    dependencies: [source],
    js: (row) => {
      const value = jsonOperand(row[source]);
      return value == null ? null : convert(jsonAt(value, segments));
    },
    sql: () =>
      type === 'json' ? `(${doc} #> ${pathArraySql(segments)})` : text.sql(`(${doc} #>> ${pathArraySql(segments)})`),
  };
}

// ---------------------------------------------------------------- liveness

/**
 * Which columns each step's output must really carry: a computed column that no later step and no
 * output uses is not computed (null) in either path, so its errors cannot surface in one path only.
 */
export function liveColumns(resolved: Resolved[], outputWidth: number): boolean[][] {
  const live: boolean[][] = new Array(resolved.length);
  let after = new Array<boolean>(outputWidth).fill(true);
  for (let s = resolved.length - 1; s >= 0; s--) {
    const step = resolved[s]!;
    live[s] = after;
    const before = new Array<boolean>(step.input.length).fill(false);
    if (step.kind === 'map') {
      step.producers.forEach((producer, j) => {
        if (!after[j]) return;
        if (producer.kind === 'pass') before[producer.source] = true;
        else for (const dependency of producer.dependencies) before[dependency] = true;
      });
    } else {
      after.forEach((isLive, j) => (before[j] = isLive));
      if (step.kind === 'filter') for (const dependency of dependenciesOf(step.predicate)) before[dependency] = true;
      else for (const key of [...step.keys, ...(step.orderBy === null ? [] : [step.orderBy])]) before[key] = true;
    }
    after = before;
  }
  return live;
}
