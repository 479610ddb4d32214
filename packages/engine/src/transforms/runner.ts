/**
 * The in-process path: resolved steps as a chain of row functions, compiled once per plan. Only the
 * last mapping step before a buffer or the end allocates the row it returns; earlier ones reuse a
 * scratch row, so a row costs one allocation however many steps it passes.
 */
import { jsonOperand, type CanonicalType, type ColumnSchema, type RecordBatch, type Value } from '../types.js';
import { compile } from './evaluate.js';
import type { ColumnProducer, Resolved } from './resolve.js';
import { EvaluationFailure, TransformError } from './steps.js';
import { compareDecimal, decimalKey, floatCompare, toInt } from './numbers.js';
import { compareTemporal, compareText, jsonbText } from './values.js';

// ---------------------------------------------------------------- running in process

/** One row in, the row out or null (dropped); `failure` says where an EvaluationFailure happened. */
interface RowStage {
  run(row: Value[]): Value[] | null;
  failure(error: EvaluationFailure): TransformError;
}

interface BufferStage {
  add(rows: Value[][]): void;
  drain(): Value[][];
}

type Segment = { kind: 'rows'; stages: RowStage[] } | { kind: 'buffer'; stage: BufferStage };

export function createRunner(resolved: Resolved[], live: boolean[][], output: ColumnSchema[]) {
  const segments = buildSegments(resolved, live);
  const push = (rows: Value[][], from: number): Value[][] => {
    let current = rows;
    for (let s = from; s < segments.length; s++) {
      const segment = segments[s]!;
      if (segment.kind === 'rows') current = runRows(segment.stages, current);
      else {
        segment.stage.add(current);
        return [];
      }
    }
    return current;
  };
  return {
    apply(batch: RecordBatch): RecordBatch {
      return { columns: output, rows: push(batch.rows, 0) };
    },
    flush(): RecordBatch | null {
      const rows: Value[][] = [];
      segments.forEach((segment, s) => {
        if (segment.kind === 'buffer') for (const row of push(segment.stage.drain(), s + 1)) rows.push(row);
      });
      return rows.length > 0 ? { columns: output, rows } : null;
    },
  };
}

function runRows(stages: RowStage[], rows: Value[][]): Value[][] {
  if (stages.length === 0) return rows;
  const out: Value[][] = [];
  let s = 0;
  try {
    for (let r = 0; r < rows.length; r++) {
      let row: Value[] | null = rows[r]!;
      for (s = 0; s < stages.length && row !== null; s++) row = stages[s]!.run(row);
      if (row !== null) out.push(row);
    }
  } catch (error) {
    if (error instanceof EvaluationFailure) throw stages[s]!.failure(error);
    throw error;
  }
  return out;
}

/** The rows of the sample after the steps resolved so far (flatten looks at its input). */
export function runResolved(resolved: Resolved[], rows: Value[][]): Value[][] {
  if (rows.length === 0) return rows;
  const live = resolved.map((step) => step.output.map(() => true));
  const runner = createRunner(resolved, live, resolved.at(-1)?.output ?? []);
  const first = runner.apply({ columns: [], rows }).rows;
  return [...first, ...(runner.flush()?.rows ?? [])];
}

function buildSegments(resolved: Resolved[], live: boolean[][]): Segment[] {
  const segments: Segment[] = [];
  let stages: RowStage[] = [];
  // A map stage allocates the row it returns only when it is the last map before a buffer or the end; earlier ones reuse a scratch row.
  const lastMapBefore = new Set<number>();
  let lastMap = -1;
  resolved.forEach((step, s) => {
    if (step.kind === 'dedupe' && step.orderBy !== null) {
      if (lastMap >= 0) lastMapBefore.add(lastMap);
      lastMap = -1;
    } else if (step.kind === 'map' && !isIdentity(step)) lastMap = s;
  });
  if (lastMap >= 0) lastMapBefore.add(lastMap);
  resolved.forEach((step, s) => {
    if (step.kind === 'map') {
      if (!isIdentity(step)) stages.push(mapStage(step, live[s]!, lastMapBefore.has(s)));
    } else if (step.kind === 'filter') {
      stages.push(filterStage(step));
    } else if (step.orderBy === null) {
      stages.push(distinctStage(step));
    } else {
      segments.push({ kind: 'rows', stages });
      segments.push({ kind: 'buffer', stage: orderedDedupeStage(step) });
      stages = [];
    }
  });
  segments.push({ kind: 'rows', stages });
  return segments;
}

const isIdentity = (step: Extract<Resolved, { kind: 'map' }>) =>
  step.producers.length === step.input.length &&
  step.producers.every((producer, j) => producer.kind === 'pass' && producer.source === j);

function mapStage(step: Extract<Resolved, { kind: 'map' }>, live: boolean[], allocate: boolean): RowStage {
  const width = step.producers.length;
  const passFrom: number[] = [];
  const passTo: number[] = [];
  const computeTo: number[] = [];
  const computeFns: ColumnProducer[] = [];
  const computePaths: string[] = [];
  const dead: number[] = [];
  step.producers.forEach((producer, j) => {
    if (!live[j]) dead.push(j);
    else if (producer.kind === 'pass') {
      passFrom.push(producer.source);
      passTo.push(j);
    } else {
      computeTo.push(j);
      computeFns.push(producer.js);
      computePaths.push(producer.path);
    }
  });
  const scratch: Value[] | null = allocate ? null : new Array<Value>(width).fill(null);
  const names = step.output.map((column) => column.name);
  let active = 0;
  return {
    run(row) {
      const out = scratch ?? new Array<Value>(width);
      for (let k = 0; k < passFrom.length; k++) out[passTo[k]!] = row[passFrom[k]!] ?? null;
      for (let k = 0; k < computeFns.length; k++) {
        active = k;
        out[computeTo[k]!] = computeFns[k]!(row);
      }
      if (scratch === null) for (let k = 0; k < dead.length; k++) out[dead[k]!] = null;
      return out;
    },
    failure: (error) =>
      new TransformError(computePaths[active]!, `column "${names[computeTo[active]!]}": ${error.message}`),
  };
}

function filterStage(step: Extract<Resolved, { kind: 'filter' }>): RowStage {
  const predicate = compile(step.predicate);
  const path = `${step.path}.expression`;
  return {
    run: (row) => (predicate(row) === true ? row : null),
    failure: (error) => new TransformError(path, error.message),
  };
}

/** The same key for values PostgreSQL's DISTINCT ON considers equal. */
function keyOf(type: CanonicalType): (value: Value) => unknown {
  switch (type) {
    case 'decimal':
      return (value) => decimalKey(value as string);
    case 'json':
      return jsonbText;
    case 'binary':
      return (value) => (value as Buffer).toString('hex');
    case 'int64':
      return (value) => String(value);
    default:
      return (value) => value; // Set/Map keys compare by SameValueZero: NaN = NaN and -0 = 0, as in PostgreSQL
  }
}

function rowKey(step: Extract<Resolved, { kind: 'dedupe' }>): (row: Value[]) => unknown {
  const parts = step.keys.map((k) => {
    const normalize = keyOf(step.input[k]!.type);
    return (row: Value[]) => {
      const value = jsonOperand(row[k]) as Value;
      return value == null ? null : normalize(value);
    };
  });
  if (parts.length === 1) return parts[0]!;
  return (row) => {
    let key = '';
    for (const part of parts) {
      const value = part(row);
      if (value === null) key += '-';
      else {
        const text = String(value);
        key += `${text.length}:${text}`;
      }
    }
    return key;
  };
}

function distinctStage(step: Extract<Resolved, { kind: 'dedupe' }>): RowStage {
  const key = rowKey(step);
  const seen = new Set<unknown>();
  return {
    run(row) {
      const k = key(row);
      if (seen.has(k)) return null;
      seen.add(k);
      return row;
    },
    failure: (error) => new TransformError(step.path, error.message),
  };
}

function orderOf(type: CanonicalType): (a: Value, b: Value) => number {
  switch (type) {
    case 'int16':
    case 'int32':
    case 'int64':
      return (a, b) => {
        const x = toInt(a);
        const y = toInt(b);
        return x < y ? -1 : x > y ? 1 : 0;
      };
    case 'float32':
    case 'float64':
      return (a, b) => floatCompare(a as number, b as number);
    case 'decimal':
      return (a, b) => compareDecimal(a as string, b as string);
    case 'string':
    case 'uuid':
      return (a, b) => compareText(a as string, b as string);
    case 'boolean':
      return (a, b) => (a === b ? 0 : a ? 1 : -1);
    default:
      return (a, b) => compareTemporal(a as string, b as string);
  }
}

/** Keeps, per key, the row with the smallest (first) or largest (last) order value; nulls never win over values. */
function orderedDedupeStage(step: Extract<Resolved, { kind: 'dedupe' }>): BufferStage {
  const key = rowKey(step);
  const orderBy = step.orderBy!;
  const compare = orderOf(step.input[orderBy]!.type);
  const sign = step.keep === 'last' ? -1 : 1;
  let best = new Map<unknown, Value[]>();
  return {
    add(rows) {
      for (const row of rows) {
        const k = key(row);
        const current = best.get(k);
        if (current === undefined) {
          best.set(k, row);
          continue;
        }
        const candidate = row[orderBy];
        const incumbent = current[orderBy];
        if (candidate == null) continue;
        if (incumbent == null || sign * compare(candidate, incumbent) < 0) best.set(k, row);
      }
    },
    drain() {
      const rows = [...best.values()];
      best = new Map();
      return rows;
    },
  };
}
