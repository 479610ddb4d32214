/**
 * The declarative transform steps of pipelines, on a stream's records. A stream learns its fields
 * from its messages, so the steps are planned against the fields of each message (their types as the
 * table inference reads JSON values: integers int64, other numbers float64, strings, booleans,
 * objects and arrays json; a field seen only as null: string), and the plan is kept for every later
 * message with the same fields. A step that cannot apply to a message (it names a field the message
 * lacks, a cast that fails) refuses that message: it goes the way of any message that cannot be
 * written (another delivery, then the dead-letter target with the reason). `deduplicate` works within
 * one message's records.
 */
import { planTransforms, type TransformPlan, type TransformStep } from '../transforms/index.js';
import type { CanonicalType, ColumnSchema, JsonValue, Value } from '../types.js';
import { MessageRejected, typeOfValue } from './records.js';

const INTEGER_TYPES = new Set<CanonicalType>(['int16', 'int32', 'int64']);
const PLANS_KEPT = 64;

function back(value: Value, type: CanonicalType): JsonValue {
  if (value === null) return null;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'string' && INTEGER_TYPES.has(type)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return value as JsonValue;
}

/** The steps as a function from one message's records to the records to write. */
export function recordTransform(
  steps: TransformStep[],
): (records: Record<string, JsonValue>[]) => Record<string, JsonValue>[] {
  const plans = new Map<string, { plan: TransformPlan; runner: ReturnType<TransformPlan['createRunner']> }>();
  return (records) => {
    if (records.length === 0) return records;
    const types = new Map<string, CanonicalType | null>();
    for (const record of records)
      for (const [field, value] of Object.entries(record)) {
        const type = typeOfValue(value);
        if (!types.has(field) || (types.get(field) === null && type !== null)) types.set(field, type);
      }
    const input: ColumnSchema[] = [...types].map(([name, type]) => ({
      name,
      type: type ?? 'string',
      sourceType: type ?? 'string',
      nullable: true,
    }));
    const signature = input.map((c) => `${c.name}:${c.type}`).join(',');
    let entry = plans.get(signature);
    try {
      if (!entry) {
        const plan = planTransforms(steps, input);
        entry = { plan, runner: plan.createRunner() };
        if (plans.size >= PLANS_KEPT) plans.delete(plans.keys().next().value!);
        plans.set(signature, entry);
      }
      const rows = records.map((record) => input.map((c) => (record[c.name] ?? null) as Value));
      const out = entry.runner.apply({ columns: input, rows }).rows;
      const rest = entry.runner.flush();
      if (rest) out.push(...rest.rows);
      const output = entry.plan.output;
      return out.map((row) => Object.fromEntries(output.map((c, i) => [c.name, back(row[i] ?? null, c.type)])));
    } catch (error) {
      if (error instanceof MessageRejected) throw error;
      const { path, message } = error as { path?: string; message: string };
      throw new MessageRejected(`transform step ${path ?? ''}: ${message}`.replace(' :', ':'));
    }
  };
}
