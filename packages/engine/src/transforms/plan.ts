/**
 * Plans transform steps against the input columns (resolve.ts), and gives the two ways to run them:
 * a runner over record batches (runner.ts) and one PostgreSQL SELECT.
 */
import type { ColumnSchema, RecordBatch, Value } from '../types.js';
import { liveColumns, resolveMask, resolveStep, type Resolved } from './resolve.js';
import { createRunner, runResolved } from './runner.js';
import { columnSql, expressionSql, pgType, quoteIdent } from './sql.js';
import { TransformError, type MaskMethod, type TransformStep } from './steps.js';
import { validateSteps } from './validate.js';

export interface TransformPlan {
  input: ColumnSchema[];
  output: ColumnSchema[];
  /** A fresh stateful runner (deduplicate keeps state): apply each batch in order, then flush once at the end. */
  createRunner(): { apply(batch: RecordBatch): RecordBatch; flush(): RecordBatch | null };
  /** The steps as one PostgreSQL SELECT over `from` (a parenthesised subquery or a quoted relation); its result columns are exactly `output`. */
  toPostgresSql(from: string): string;
  /**
   * When the SELECT of `toPostgresSql` fails on a value, PostgreSQL does not say which expression
   * raised: these queries, run in order, find it. Each evaluates one computed column (or one filter)
   * over every row the steps before it give; the first that fails names the step and the column.
   */
  failureProbes(from: string): FailureProbe[];
}

export interface FailureProbe {
  /** The step's path, as TransformError paths are: '2.expression', '3.columns.amount'. */
  path: string;
  /** The column the failing value is computed for (none for a filter). */
  column?: string;
  sql: string;
}

export interface PlanOptions {
  /** Rows in the input column order: where flatten finds its paths and column types when none are given. */
  sample?: Value[][];
  /** Governance masking, applied to the final output columns after all steps. */
  masking?: (column: ColumnSchema) => MaskMethod | undefined;
}

export function planTransforms(
  steps: TransformStep[],
  input: ColumnSchema[],
  options: PlanOptions = {},
): TransformPlan {
  const problems = validateSteps(steps);
  if (problems.length > 0) throw new TransformError(problems[0]!.path, problems[0]!.message);
  const resolved: Resolved[] = [];
  let columns = input;
  steps.forEach((step, i) => {
    const sampleRows = () => runResolved(resolved, options.sample ?? []);
    const next = resolveStep(step, i, columns, sampleRows);
    resolved.push(next);
    columns = next.output;
  });
  if (options.masking) {
    const methods = columns.map((column) => options.masking!(column));
    if (methods.some((method) => method !== undefined)) {
      const masks = Object.fromEntries(columns.flatMap((column, j) => (methods[j] ? [[column.name, methods[j]]] : [])));
      resolved.push(resolveMask(masks, columns, 'masking', (name) => `masking.${name}`));
      columns = resolved.at(-1)!.output;
    }
  }
  const liveness = liveColumns(resolved, columns.length);
  const output = columns;
  return {
    input,
    output,
    createRunner: () => createRunner(resolved, liveness, output),
    toPostgresSql: (from) => toSql(resolved, liveness, input, from),
    failureProbes: (from) => failureProbes(resolved, liveness, input, from),
  };
}

// ---------------------------------------------------------------- pushdown

function toSql(resolved: Resolved[], live: boolean[][], input: ColumnSchema[], from: string): string {
  // A bare parenthesised subquery needs an alias in PostgreSQL 15.
  let source = /\)\s*$/.test(from) ? `${from} AS svc_source` : from;
  if (resolved.length === 0)
    return `SELECT ${input.map((column) => quoteIdent(column.name)).join(', ')} FROM ${source}`;
  let sql = '';
  // Whether a computation or a filter happened since the last fence (see stepSql).
  let unfenced = false;
  resolved.forEach((step, s) => {
    unfenced ||=
      step.kind === 'filter' || (step.kind === 'map' && step.producers.some((producer) => producer.kind === 'compute'));
    const fence = step.kind === 'dedupe' || (unfenced && resolved[s + 1]?.kind === 'filter');
    if (fence) unfenced = false;
    sql = stepSql(step, live[s]!, source, fence);
    source = `(${sql}) AS svc_step_${s}`;
  });
  return sql;
}

function failureProbes(resolved: Resolved[], live: boolean[][], input: ColumnSchema[], from: string): FailureProbe[] {
  return resolved.flatMap((step, s) => {
    // Everything before the step, fenced so that nothing of the probe is evaluated before it.
    const before = `(SELECT * FROM (${toSql(resolved.slice(0, s), live, input, from)}) AS svc_probe_in OFFSET 0) AS svc_probe`;
    if (step.kind === 'filter')
      return [
        {
          path: `${step.path}.expression`,
          sql: `SELECT count(*) FROM ${before} WHERE (${expressionSql(step.predicate, step.input)}) IS TRUE`,
        },
      ];
    if (step.kind !== 'map') return [];
    return step.producers.flatMap((producer, j) =>
      producer.kind === 'compute' && live[s]![j]
        ? [{ path: producer.path, column: step.output[j]!.name, sql: `SELECT count(${producer.sql()}) FROM ${before}` }]
        : [],
    );
  });
}

/**
 * One SELECT per step; the planner flattens them into few levels, which is what makes pushdown fast.
 * Flattening never changes a result, but it could change which rows an expression is evaluated on
 * (and so whether it raises): PostgreSQL orders the conditions of one level by cost, and computes a
 * level's columns only for the rows its conditions keep. So the level under a filter is fenced with
 * OFFSET 0 (which the planner neither flattens nor pushes conditions into) whenever computations or
 * filters came before it: those run, for the same rows as in process, before the filter sees them.
 */
function stepSql(step: Resolved, live: boolean[], source: string, fence: boolean): string {
  const list = (columns: ColumnSchema[]) => columns.map((column) => quoteIdent(column.name)).join(', ');
  const offset = fence ? ' OFFSET 0' : '';
  switch (step.kind) {
    case 'map': {
      const items = step.producers.map((producer, j) => {
        const name = step.output[j]!.name;
        if (producer.kind === 'pass') {
          const sourceName = step.input[producer.source]!.name;
          return sourceName === name ? quoteIdent(name) : `${quoteIdent(sourceName)} AS ${quoteIdent(name)}`;
        }
        const value = live[j] ? producer.sql() : `NULL::${pgType(step.output[j]!.type)}`;
        return `${value} AS ${quoteIdent(name)}`;
      });
      return `SELECT ${items.join(', ')} FROM ${source}${offset}`;
    }
    case 'filter':
      // IS TRUE: null drops the row, and the condition stays one expression evaluated left to right.
      return `SELECT ${list(step.output)} FROM ${source} WHERE (${expressionSql(step.predicate, step.input)}) IS TRUE${offset}`;
    case 'dedupe': {
      const keys = step.keys.map((k) => {
        const column = step.input[k]!;
        return column.type === 'string' || column.type === 'json' ? columnSql(column) : quoteIdent(column.name);
      });
      let order = keys.join(', ');
      if (step.orderBy !== null) {
        const column = step.input[step.orderBy]!;
        const value = column.type === 'string' ? `${columnSql(column)} COLLATE "C"` : quoteIdent(column.name);
        order += `, ${value} ${step.keep === 'last' ? 'DESC' : 'ASC'} NULLS LAST`;
      }
      return `SELECT DISTINCT ON (${keys.join(', ')}) ${list(step.output)} FROM ${source} ORDER BY ${order} OFFSET 0`;
    }
  }
}
