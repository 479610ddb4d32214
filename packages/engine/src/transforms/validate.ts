/** Structural validation of untrusted steps (JSON from the API), before any column is known. */
import { CANONICAL_TYPES } from '../types.js';
import { ExpressionProblem, parseExpression } from './expression.js';
import { MASK_METHODS, TRANSFORM_TYPES, type TransformProblem } from './steps.js';

const FIELDS: Record<string, { required: string[]; optional: string[] }> = {
  select: { required: ['columns'], optional: [] },
  drop: { required: ['columns'], optional: [] },
  rename: { required: ['columns'], optional: [] },
  cast: { required: ['columns'], optional: [] },
  filter: { required: ['expression'], optional: [] },
  derive: { required: ['column', 'expression'], optional: [] },
  deduplicate: { required: ['keys'], optional: ['order_by', 'keep'] },
  flatten: { required: ['column'], optional: ['paths', 'separator', 'keep_original'] },
  mask: { required: ['columns'], optional: [] },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && !value.includes('\u0000');

export function validateSteps(steps: unknown): TransformProblem[] {
  if (!Array.isArray(steps)) return [{ path: '', message: 'steps must be an array' }];
  const problems: TransformProblem[] = [];
  steps.forEach((step, i) => validateStep(step, String(i), problems));
  return problems;
}

function validateStep(step: unknown, at: string, problems: TransformProblem[]): void {
  const report = (path: string, message: string) => problems.push({ path: path ? `${at}.${path}` : at, message });
  if (!isObject(step)) return void report('', 'a step must be an object');
  const type = step['type'];
  if (type === undefined) return void report('type', 'missing step type');
  if (typeof type !== 'string' || !(TRANSFORM_TYPES as readonly string[]).includes(type)) {
    return void report('type', `unknown step type ${JSON.stringify(type)} (one of ${TRANSFORM_TYPES.join(', ')})`);
  }
  const fields = FIELDS[type]!;
  for (const field of fields.required) if (step[field] === undefined) report(field, `missing ${field}`);
  for (const field of Object.keys(step)) {
    if (field !== 'type' && !fields.required.includes(field) && !fields.optional.includes(field))
      report(field, `unknown field "${field}" for a ${type} step`);
  }
  switch (type) {
    case 'select':
    case 'drop':
      nameList(step['columns'], 'columns', report);
      break;
    case 'rename':
      nameMap(step['columns'], 'columns', report, (value) =>
        isName(value) ? null : 'the new name must be a non-empty string',
      );
      if (isObject(step['columns'])) {
        const seen = new Set<unknown>();
        for (const [from, to] of Object.entries(step['columns'])) {
          if (seen.has(to)) report(`columns.${from}`, `two columns would be renamed to ${JSON.stringify(to)}`);
          seen.add(to);
        }
      }
      break;
    case 'cast':
      nameMap(step['columns'], 'columns', report, (value) =>
        typeof value === 'string' && (CANONICAL_TYPES as readonly string[]).includes(value)
          ? null
          : `unknown type ${JSON.stringify(value)} (one of ${CANONICAL_TYPES.join(', ')})`,
      );
      break;
    case 'filter':
      expression(step['expression'], report);
      break;
    case 'derive':
      if (step['column'] !== undefined && !isName(step['column']))
        report('column', 'column must be a non-empty string');
      expression(step['expression'], report);
      break;
    case 'deduplicate':
      nameList(step['keys'], 'keys', report);
      if (step['order_by'] !== undefined && !isName(step['order_by']))
        report('order_by', 'order_by must be a column name');
      if (step['keep'] !== undefined && step['keep'] !== 'first' && step['keep'] !== 'last')
        report('keep', "keep must be 'first' or 'last'");
      break;
    case 'flatten':
      if (step['column'] !== undefined && !isName(step['column']))
        report('column', 'column must be a non-empty string');
      if (step['paths'] !== undefined) {
        nameList(step['paths'], 'paths', report);
        if (Array.isArray(step['paths'])) {
          step['paths'].forEach((path, j) => {
            if (isName(path) && path.split('.').some((segment) => segment === ''))
              report(`paths.${j}`, `path ${JSON.stringify(path)} has an empty segment`);
          });
        }
      }
      if (step['separator'] !== undefined && typeof step['separator'] !== 'string')
        report('separator', 'separator must be a string');
      if (step['keep_original'] !== undefined && typeof step['keep_original'] !== 'boolean')
        report('keep_original', 'keep_original must be true or false');
      break;
    case 'mask':
      nameMap(step['columns'], 'columns', report, (value) =>
        typeof value === 'string' && (MASK_METHODS as readonly string[]).includes(value)
          ? null
          : `unknown mask method ${JSON.stringify(value)} (one of ${MASK_METHODS.join(', ')})`,
      );
      break;
  }
}

type Report = (path: string, message: string) => void;

function nameList(value: unknown, field: string, report: Report): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length === 0) return report(field, `${field} must be a non-empty array of names`);
  const seen = new Set<string>();
  value.forEach((name, j) => {
    if (!isName(name)) report(`${field}.${j}`, 'must be a non-empty string');
    else if (seen.has(name)) report(`${field}.${j}`, `"${name}" is listed twice`);
    else seen.add(name);
  });
}

function nameMap(value: unknown, field: string, report: Report, check: (entry: unknown) => string | null): void {
  if (value === undefined) return;
  if (!isObject(value) || Object.keys(value).length === 0)
    return report(field, `${field} must be a non-empty object of column names`);
  for (const [name, entry] of Object.entries(value)) {
    const message = name === '' ? 'column names cannot be empty' : check(entry);
    if (message) report(`${field}.${name}`, message);
  }
}

function expression(value: unknown, report: Report): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '')
    return report('expression', 'expression must be a non-empty string');
  try {
    parseExpression(value);
  } catch (error) {
    if (!(error instanceof ExpressionProblem)) throw error;
    report('expression', error.message);
  }
}
