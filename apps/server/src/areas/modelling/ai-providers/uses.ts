/**
 * What the AI is asked, and how its answers are checked before anyone sees them: a draft model must
 * parse as one SELECT that reads only the project's models (`ref`) and warehouse tables (`source`);
 * suggested steps must pass the engine's step validation; a dataset description must be JSON that
 * names only the dataset's columns. Nothing an answer proposes is saved or run here.
 */
import { maskRule, TRANSFORM_TYPES, validateSteps, type MaskMethod } from '@svc/engine';
import { createCompiler, type CompilableModel, type Placement } from '../dw-models/compile.js';
import { ModelSqlError, parserReady, parseSelect, parseTemplate, relationsOf } from '../dw-models/sql.js';

/** A table or view of the project's warehouse, as the prompt shows it. */
export interface WarehouseTable {
  /** The project's schema name (`raw`, `models`), as `source()` takes it. */
  schema: string;
  name: string;
  columns: Array<{ name: string; type: string }>;
  /** Masked sample rows, only when the caller opted in. */
  samples?: Array<Record<string, unknown>>;
}

/** The answer failed its checks: the message says which, and is shown as a 422. */
export class InvalidAnswer extends Error {}

/**
 * The masking by name applied to sample values before they go into a prompt, to columns no masking
 * policy of the project covers: columns whose names suggest personal data or credentials.
 */
export function defaultMasking(column: string): MaskMethod | undefined {
  const name = column.toLowerCase();
  if (/(password|passwd|secret|token|api_?key|credential)/.test(name)) return 'redact';
  if (/(e_?mail|phone|mobile|ssn|social_security|iban|card|passport|birth|address|street|ip_?addr)/.test(name))
    return 'partial';
  if (/(^|_)(first_?name|last_?name|full_?name|surname|name)$/.test(name)) return 'hash';
  return undefined;
}

/** A sample row with the masking applied (values as text, nulls kept). */
export function maskRow(
  row: Record<string, unknown>,
  masking: (column: string) => MaskMethod | undefined = defaultMasking,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => {
      const method = masking(column);
      if (!method || value === null || value === undefined) return [column, value];
      return [column, maskRule(method, 'string').js(String(value))];
    }),
  );
}

/** The text between the first ``` fence (```sql, ```json) and its close, or the whole answer. */
export function fenced(answer: string): string {
  const start = answer.indexOf('```');
  if (start < 0) return answer.trim();
  const bodyStart = answer.indexOf('\n', start);
  const end = answer.indexOf('```', bodyStart + 1);
  if (bodyStart < 0 || end < 0) return answer.slice(start + 3).trim();
  return answer.slice(bodyStart + 1, end).trim();
}

const describeTables = (tables: WarehouseTable[]) =>
  tables
    .map((t) => {
      const lines = [`- ${t.schema}.${t.name}: ${t.columns.map((c) => `${c.name} ${c.type}`).join(', ')}`];
      if (t.samples?.length) lines.push(`  sample rows (masked): ${JSON.stringify(t.samples)}`);
      return lines.join('\n');
    })
    .join('\n');

export function draftModelPrompt(question: string, tables: WarehouseTable[], models: CompilableModel[]) {
  const modelNames = new Set(models.map((m) => m.name));
  return {
    system:
      'You write PostgreSQL SELECT statements for warehouse models. Answer with exactly one SELECT in a ```sql block and nothing else. ' +
      "Refer to other models only as {{ ref('model_name') }} and to warehouse tables only as {{ source('schema', 'table') }}; " +
      'never name a schema or table directly, never use functions that read files or the server, and never write data.',
    prompt:
      `Question: ${question}\n\n` +
      `Models of the project (use {{ ref('name') }}):\n${describeTables(tables.filter((t) => t.schema === 'models' && modelNames.has(t.name))) || '(none)'}\n\n` +
      `Warehouse tables of the project (use {{ source('schema', 'table') }}):\n${describeTables(tables.filter((t) => t.schema !== 'models')) || '(none)'}`,
  };
}

/**
 * Checks a drafted model: one SELECT (after the template is resolved), whose every relation is a
 * model of the project or a table of the project's warehouse listed in `tables`.
 */
export async function checkDraft(
  answer: string,
  context: { models: CompilableModel[]; tables: WarehouseTable[]; placement: Placement },
): Promise<{ sql: string; refs: string[]; sources: Array<{ schema: string; table: string }> }> {
  await parserReady();
  const sql = fenced(answer);
  if (!sql) throw new InvalidAnswer('the answer holds no SQL');
  try {
    const template = parseTemplate(sql);
    const modelNames = new Set(context.models.map((m) => m.name));
    for (const ref of template.refs)
      if (!modelNames.has(ref))
        throw new InvalidAnswer(`the SQL refers to ref('${ref}'), which is no model of this project`);
    for (const source of template.sources)
      if (!context.tables.some((t) => t.schema === source.schema && t.name === source.table))
        throw new InvalidAnswer(
          `the SQL refers to source('${source.schema}', '${source.table}'), which is no table of this project's warehouse`,
        );
    const draftName = '__svc_draft';
    const compiled = createCompiler(
      [...context.models, { name: draftName, sql, materialization: 'view' }],
      context.placement,
    ).compile(draftName);
    // Every relation it reads is one ref() or source() produced: nothing named directly.
    const allowed = new Set([
      ...template.refs.map((r) => `${context.placement.modelSchema}.${r}`),
      ...template.sources.map((s) => `${context.placement.sourceSchema(s.schema)}.${s.table}`),
    ]);
    for (const relation of relationsOf(parseSelect(compiled))) {
      const key = `${relation.schema}.${relation.name}`;
      if (!allowed.has(key))
        throw new InvalidAnswer(
          `the SQL reads ${relation.schema ? `${relation.schema}.` : ''}${relation.name} directly; only ref() and source() of this project are allowed`,
        );
    }
    return { sql, refs: template.refs, sources: template.sources };
  } catch (error) {
    if (error instanceof ModelSqlError) throw new InvalidAnswer(`the SQL is not valid: ${error.message}`);
    throw error;
  }
}

export function stepsPrompt(description: string, columns: Array<{ name: string; type: string }>) {
  return {
    system:
      'You propose transform steps for a data pipeline. Answer with a JSON array of steps in a ```json block and nothing else. ' +
      `Step types: ${TRANSFORM_TYPES.join(', ')}. Examples: {"type": "filter", "expression": "amount > 0"}, ` +
      '{"type": "derive", "column": "total", "expression": "price * quantity"}, {"type": "rename", "columns": {"old": "new"}}, ' +
      '{"type": "cast", "columns": {"price": "decimal"}}, {"type": "select", "columns": ["id"]}, {"type": "drop", "columns": ["x"]}, ' +
      '{"type": "deduplicate", "keys": ["email"]}, {"type": "mask", "columns": {"email": "hash"}}.',
    prompt: `Input columns: ${columns.map((c) => `${c.name} ${c.type}`).join(', ') || '(unknown)'}\n\nWanted: ${description}`,
  };
}

export function checkSteps(answer: string): Array<Record<string, unknown>> {
  let steps: unknown;
  try {
    steps = JSON.parse(fenced(answer));
  } catch {
    throw new InvalidAnswer('the answer is not a JSON array of steps');
  }
  if (!Array.isArray(steps) || steps.some((s) => !s || typeof s !== 'object' || Array.isArray(s)))
    throw new InvalidAnswer('the answer is not a JSON array of steps');
  const problems = validateSteps(steps as Array<Record<string, unknown>>);
  if (problems.length)
    throw new InvalidAnswer(`the steps are not valid: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  return steps as Array<Record<string, unknown>>;
}

export function describePrompt(dataset: {
  name: string;
  namespace: string | null;
  columns: Array<{ name: string; type: string }>;
}) {
  return {
    system:
      'You describe datasets for a data catalog. Answer with a JSON object in a ```json block and nothing else: ' +
      '{"description": "<one or two sentences>", "columns": {"<column name>": "<one sentence>"}}, covering every column.',
    prompt: `Dataset ${dataset.namespace ? `${dataset.namespace}.` : ''}${dataset.name}; columns: ${dataset.columns.map((c) => `${c.name} ${c.type}`).join(', ')}`,
  };
}

export function checkDescription(
  answer: string,
  columns: Array<{ name: string }>,
): { description: string; columns: Array<{ name: string; description: string }> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fenced(answer));
  } catch {
    throw new InvalidAnswer('the answer is not a JSON object');
  }
  const value = parsed as { description?: unknown; columns?: unknown };
  if (!value || typeof value.description !== 'string' || !value.description.trim())
    throw new InvalidAnswer('the answer has no description');
  if (!value.columns || typeof value.columns !== 'object' || Array.isArray(value.columns))
    throw new InvalidAnswer('the answer has no column descriptions');
  const known = new Set(columns.map((c) => c.name));
  const described = Object.entries(value.columns as Record<string, unknown>);
  for (const [name, text] of described) {
    if (!known.has(name)) throw new InvalidAnswer(`the answer describes a column "${name}" the dataset does not have`);
    if (typeof text !== 'string') throw new InvalidAnswer(`the description of column "${name}" is not text`);
  }
  return {
    description: value.description.trim(),
    columns: described.map(([name, text]) => ({ name, description: String(text).trim() })),
  };
}
