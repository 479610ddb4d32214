/**
 * Column-level lineage of a list of transform steps: for every output column, the input columns it
 * is made of and how. Derive names the columns its expression mentions; rename, cast and flatten map
 * one to one; mask keeps the column but hides its value. Filter and deduplicate change which rows
 * pass, not what a column is made of, so they add no lineage of their own.
 */
import { parseExpression, referencedColumns } from './expression.js';
import type { TransformStep } from './steps.js';

/** How an output column was made from its inputs (OpenLineage column lineage transformation). */
export interface ColumnTransformation {
  type: 'DIRECT';
  subtype: 'IDENTITY' | 'TRANSFORMATION';
  description?: string;
  masking?: boolean;
}

export interface ColumnLineageEntry {
  column: string;
  inputs: string[];
  transformation: ColumnTransformation;
}

interface Tracked {
  inputs: Set<string>;
  subtype: 'IDENTITY' | 'TRANSFORMATION';
  descriptions: string[];
  masking: boolean;
}

const identity = (name: string): Tracked => ({
  inputs: new Set([name]),
  subtype: 'IDENTITY',
  descriptions: [],
  masking: false,
});

/**
 * `inputColumns` are the columns the steps start from when known (from the catalog); without them
 * only the columns the steps name are followed. A derive expression that does not parse names no
 * inputs (the pipeline's validation refuses it anyway).
 */
export function columnLineage(inputColumns: string[] | null, steps: readonly TransformStep[]): ColumnLineageEntry[] {
  const columns = new Map<string, Tracked>();
  const known = inputColumns !== null;
  for (const name of inputColumns ?? []) columns.set(name, identity(name));
  const take = (name: string): Tracked =>
    columns.get(name) ?? (known ? { ...identity(name), inputs: new Set() } : identity(name));
  const changed = (from: Tracked, description: string, masking = false): Tracked => ({
    inputs: new Set(from.inputs),
    subtype: 'TRANSFORMATION',
    descriptions: [...from.descriptions, description],
    masking: from.masking || masking,
  });

  for (const step of steps) {
    switch (step.type) {
      case 'derive': {
        let names = new Set<string>();
        try {
          names = referencedColumns(parseExpression(step.expression));
        } catch {
          // not parsable: no known inputs
        }
        const inputs = new Set<string>();
        let masking = false;
        for (const name of names) {
          const from = take(name);
          for (const input of from.inputs) inputs.add(input);
          masking ||= from.masking;
        }
        columns.set(step.column, {
          inputs,
          subtype: 'TRANSFORMATION',
          descriptions: [`derive ${step.column} = ${step.expression}`],
          masking,
        });
        break;
      }
      case 'rename': {
        const moved = Object.entries(step.columns).map(([from, to]) => [to, take(from), from] as const);
        for (const [, , from] of moved) columns.delete(from);
        for (const [to, tracked] of moved) columns.set(to, tracked);
        break;
      }
      case 'cast':
        for (const [name, type] of Object.entries(step.columns))
          columns.set(name, changed(take(name), `cast ${name} to ${type}`));
        break;
      case 'mask':
        for (const [name, method] of Object.entries(step.columns))
          columns.set(name, changed(take(name), `mask ${name} (${method})`, true));
        break;
      case 'flatten': {
        const from = take(step.column);
        if (!step.keep_original) columns.delete(step.column);
        const separator = step.separator ?? '_';
        for (const path of step.paths ?? [])
          columns.set(
            `${step.column}${separator}${path.split('.').join(separator)}`,
            changed(from, `flatten ${step.column}.${path}`),
          );
        break;
      }
      case 'drop':
        for (const name of step.columns) columns.delete(name);
        break;
      case 'select': {
        const kept = new Map<string, Tracked>();
        for (const name of step.columns) kept.set(name, take(name));
        columns.clear();
        for (const [name, tracked] of kept) columns.set(name, tracked);
        break;
      }
      case 'filter':
      case 'deduplicate':
        break;
    }
  }
  return [...columns].map(([column, tracked]) => ({
    column,
    inputs: [...tracked.inputs].sort(),
    transformation: {
      type: 'DIRECT',
      subtype: tracked.subtype,
      ...(tracked.descriptions.length ? { description: tracked.descriptions.join('; ') } : {}),
      ...(tracked.masking ? { masking: true } : {}),
    },
  }));
}
