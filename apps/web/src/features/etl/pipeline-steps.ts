/**
 * The pipeline builder's steps as form drafts (every field a string or a switch) and back. The API
 * checks each step field by field (a 422 names `transforms.<i>.<field>`), so the conversion only
 * shapes the text: lists are comma-separated, maps are `key=value` pairs. A saved step keeps every
 * field the form did not change exactly as it was (names with commas, an empty separator, fields
 * the form does not show), so editing one step never rewrites another.
 */
export type StepType = 'select' | 'drop' | 'rename' | 'cast' | 'filter' | 'derive' | 'deduplicate' | 'flatten' | 'mask';
export const STEP_TYPES: StepType[] = [
  'select',
  'drop',
  'rename',
  'cast',
  'filter',
  'derive',
  'deduplicate',
  'flatten',
  'mask',
];

export type FieldShape = 'text' | 'list' | 'pairs' | 'flag' | 'choice';
export interface StepField {
  name: string;
  label: string;
  shape: FieldShape;
  optional?: boolean;
  options?: string[];
  help?: string;
}

export const STEP_FIELDS: Record<StepType, StepField[]> = {
  select: [{ name: 'columns', label: 'Columns to keep', shape: 'list', help: 'Comma-separated, in the order wanted' }],
  drop: [{ name: 'columns', label: 'Columns to drop', shape: 'list', help: 'Comma-separated' }],
  rename: [{ name: 'columns', label: 'Renames', shape: 'pairs', help: 'old=new, comma-separated' }],
  cast: [{ name: 'columns', label: 'Casts', shape: 'pairs', help: 'column=type, e.g. price=decimal, born=date' }],
  filter: [
    {
      name: 'expression',
      label: 'Keep rows where',
      shape: 'text',
      help: "An expression, e.g. country == 'DE' and age >= 18",
    },
  ],
  derive: [
    { name: 'column', label: 'Column', shape: 'text' },
    { name: 'expression', label: 'Expression', shape: 'text', help: 'e.g. price * quantity, upper(name)' },
  ],
  deduplicate: [
    { name: 'keys', label: 'Key columns', shape: 'list', help: 'Comma-separated' },
    { name: 'order_by', label: 'Order by', shape: 'text', optional: true },
    { name: 'keep', label: 'Keep', shape: 'choice', options: ['first', 'last'] },
  ],
  flatten: [
    { name: 'column', label: 'JSON column', shape: 'text' },
    {
      name: 'paths',
      label: 'Paths',
      shape: 'list',
      optional: true,
      help: 'Comma-separated, e.g. city, geo.lat; empty: found from the sample',
    },
    { name: 'separator', label: 'Separator', shape: 'text', optional: true },
    { name: 'keep_original', label: 'Keep the original column', shape: 'flag' },
  ],
  mask: [{ name: 'columns', label: 'Masks', shape: 'pairs', help: 'column=method (hash, redact, null, partial)' }],
};

export interface StepDraft {
  /** A stable id for React keys while steps move. */
  key: number;
  type: StepType;
  values: Record<string, string | boolean>;
  /** The step as saved, for a draft of a saved step. */
  original?: Record<string, unknown>;
  /** Fields changed in the form since. */
  edited?: string[];
}

/** The draft with one field changed (and marked as edited). */
export function withValue(draft: StepDraft, name: string, value: string | boolean): StepDraft {
  return {
    ...draft,
    values: { ...draft.values, [name]: value },
    edited: [...new Set([...(draft.edited ?? []), name])],
  };
}

let nextKey = 1;

export function newDraft(type: StepType): StepDraft {
  const values: Record<string, string | boolean> = {};
  for (const field of STEP_FIELDS[type])
    values[field.name] = field.shape === 'flag' ? false : field.shape === 'choice' ? field.options![0]! : '';
  return { key: nextKey++, type, values };
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** A field's text as the API takes it; a pair without `=` keeps an empty value, so the API names the field. */
function valueOf(field: StepField, value: string | boolean | undefined): unknown {
  if (field.shape === 'flag') return value === true;
  const text = String(value ?? '');
  if (field.shape === 'list') return splitList(text);
  if (field.shape === 'pairs') {
    return Object.fromEntries(
      splitList(text).map((pair) => {
        const at = pair.indexOf('=');
        return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
    );
  }
  return text;
}

/** The step the API takes: saved fields as they were unless edited; empty optional fields left out. */
export function toStep(draft: StepDraft): Record<string, unknown> & { type: StepType } {
  const step: Record<string, unknown> & { type: StepType } = { ...(draft.original ?? {}), type: draft.type };
  for (const field of STEP_FIELDS[draft.type]) {
    if (draft.original && !draft.edited?.includes(field.name)) continue;
    const value = draft.values[field.name];
    const empty = field.shape !== 'flag' && String(value ?? '').trim() === '';
    if (field.optional && empty) delete step[field.name];
    else step[field.name] = valueOf(field, value);
  }
  return step;
}

/** A saved step as a draft; a step of an unknown type is refused rather than silently dropped. */
export function toDraft(step: Record<string, unknown>): StepDraft {
  const type = String(step['type']) as StepType;
  if (!Object.hasOwn(STEP_FIELDS, type)) throw new Error(`a step of type "${type}" cannot be edited here`);
  const draft = newDraft(type);
  for (const field of STEP_FIELDS[type]) {
    const value = step[field.name];
    if (value === undefined || value === null) continue;
    if (field.shape === 'flag') draft.values[field.name] = value === true;
    else if (field.shape === 'list') draft.values[field.name] = (value as unknown[]).map(String).join(', ');
    else if (field.shape === 'pairs')
      draft.values[field.name] = Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ');
    else draft.values[field.name] = String(value);
  }
  return { ...draft, original: step, edited: [] };
}
