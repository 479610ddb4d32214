/**
 * Typed expressions -> PostgreSQL. Every node's SQL has exactly the PostgreSQL type of its canonical
 * type (casts are explicit), literals go through pg's escapeLiteral and identifiers are quoted, so
 * nothing from the user reaches the statement unquoted.
 */
import { escapeLiteral } from 'pg';
import type { CanonicalType, ColumnSchema } from '../types.js';
import type { ExprType, Typed } from './expression.js';
import { floatText } from './numbers.js';
import { TEXT_GRAMMARS } from './values.js';

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export const PG_TYPES: Record<CanonicalType, string> = {
  boolean: 'boolean',
  int16: 'smallint',
  int32: 'integer',
  int64: 'bigint',
  float32: 'real',
  float64: 'double precision',
  decimal: 'numeric',
  string: 'text',
  uuid: 'uuid',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  json: 'jsonb',
  binary: 'bytea',
};

export const pgType = (type: ExprType): string => PG_TYPES[type === 'null' ? 'string' : type];

const BLANK_PADDED = new Set(['1042', 'bpchar', 'character']);

/**
 * A column as an expression operand, in the form the in-process path sees it: char(n) keeps its
 * padding (its `::text` would strip it), and a JSON null is SQL null, as the connector reads it.
 */
export function columnSql(column: ColumnSchema): string {
  const name = quoteIdent(column.name);
  if (column.type === 'string')
    return BLANK_PADDED.has(column.sourceType) ? `textin(bpcharout(${name}))` : `(${name})::text`;
  if (column.type === 'json') return `nullif((${name})::jsonb, 'null'::jsonb)`;
  return name;
}

export function literalSql(type: ExprType, value: unknown): string {
  const pg = pgType(type);
  if (value === null || value === undefined) return `NULL::${pg}`;
  switch (type) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'int16':
    case 'int32':
    case 'int64':
      return `${escapeLiteral(String(value))}::${pg}`;
    case 'float32':
      return `${escapeLiteral(floatText(value as number, true))}::${pg}`;
    case 'float64':
      return `${escapeLiteral(floatText(value as number))}::${pg}`;
    case 'json':
      return `${escapeLiteral(JSON.stringify(value))}::${pg}`;
    case 'binary':
      return `${escapeLiteral(`\\x${(value as Buffer).toString('hex')}`)}::${pg}`;
    default:
      return `${escapeLiteral(String(value))}::${pg}`;
  }
}

/** `::text` of a value of the type (the operand is already in columnSql form). */
export function textSql(type: ExprType, sql: string): string {
  return type === 'string' ? sql : `(${sql})::text`;
}

/** An expression of the type as float8, the way the in-process path converts it (float4 via its shortest text). */
export function float8Sql(type: ExprType, sql: string): string {
  if (type === 'float64') return sql;
  if (type === 'float32') return `(${sql})::text::float8`;
  return `(${sql})::float8`;
}

/** An expression of the type as numeric, the way round() and casts see it (floats by their shortest text). */
export function numericSql(type: ExprType, sql: string): string {
  if (type === 'decimal') return sql;
  if (type === 'float32' || type === 'float64') return `(${sql})::text::numeric`;
  return `(${sql})::numeric`;
}

/**
 * text -> type through the same grammar the in-process path checks; a value outside it fails with a
 * message naming the column (a cast of a message that is no valid value of any type).
 */
export function checkedCastSql(sql: string, type: CanonicalType, column: string): string {
  const grammar = TEXT_GRAMMARS[type]!;
  const target = type === 'float32' ? 'double precision' : pgType(type);
  const message = escapeLiteral(`column "${column}": not a valid ${type}: `);
  const cast = `CASE WHEN (${sql}) ${grammar.caseInsensitive ? '~*' : '~'} ${escapeLiteral(grammar.pattern)} THEN (${sql})::${target} ELSE (${message} || (${sql}))::${target} END`;
  return type === 'float32' ? `(${cast})::real` : cast;
}

const SQL_OPERATORS: Record<string, string> = { '==': '=', '!=': '<>' };

export function expressionSql(node: Typed, columns: ColumnSchema[]): string {
  const sql = (child: Typed) => expressionSql(child, columns);
  switch (node.kind) {
    case 'literal':
      return literalSql(node.type, node.value);
    case 'column':
      return columnSql(columns[node.index]!);
    case 'convert': {
      const arg = sql(node.arg);
      if (node.type === 'int64') return `(${arg})::bigint`;
      if (node.type === 'float64') return float8Sql(node.arg.type, arg);
      if (node.type === 'decimal') return `(${arg})::numeric`;
      return textSql(node.arg.type, arg);
    }
    case 'negate':
      return `(-(${sql(node.arg)}))`;
    case 'arithmetic':
      return `((${sql(node.left)}) ${node.op} (${sql(node.right)}))`;
    case 'compare': {
      const op = SQL_OPERATORS[node.op] ?? node.op;
      // COLLATE "C": code point order, as the in-process comparison; equality is unaffected.
      if (node.domain === 'text') return `((${sql(node.left)}) COLLATE "C" ${op} (${sql(node.right)}))`;
      return `((${sql(node.left)}) ${op} (${sql(node.right)}))`;
    }
    case 'logic':
      return `((${sql(node.left)}) ${node.op.toUpperCase()} (${sql(node.right)}))`;
    case 'not':
      return `(NOT (${sql(node.arg)}))`;
    case 'call':
      return callSql(node, sql);
  }
}

function callSql(node: Extract<Typed, { kind: 'call' }>, sql: (child: Typed) => string): string {
  const args = node.args.map(sql);
  const [first, second, third] = args as [string, string | undefined, string | undefined];
  switch (node.name) {
    case 'lower':
    case 'upper':
      // ICU's root locale: Unicode's full case mapping, as String.prototype.toLowerCase.
      return `${node.name}((${first}) COLLATE "und-x-icu")`;
    case 'trim':
      return `btrim(${first})`;
    case 'length':
      return `(char_length(${first}))::bigint`;
    case 'concat':
      return `concat(${args.join(', ')})`;
    case 'coalesce':
      return `COALESCE(${args.join(', ')})`;
    case 'substr':
      return `substr(${first}, (${second})::integer${third === undefined ? '' : `, (${third})::integer`})`;
    case 'replace':
      return `replace(${first}, ${second}, ${third})`;
    case 'round': {
      const value = numericSql(node.args[0]!.type, first);
      return `(round(${value}${second === undefined ? '' : `, (${second})::integer`}))::double precision`;
    }
    case 'abs':
      return `abs(${first})`;
    case 'floor':
    case 'ceil':
      return node.type === 'int64' ? first : `${node.name}(${first})`;
    case 'if':
      return `(CASE WHEN ${first} THEN ${second} ELSE ${third} END)`;
    case 'is_null':
      return `((${first}) IS NULL)`;
    case 'json_get': {
      const path = (node.args[1] as Extract<Typed, { kind: 'literal' }>).value as string;
      return `((${first}) #>> ${pathArraySql(path.split('.'))})`;
    }
  }
}

export function pathArraySql(segments: readonly string[]): string {
  return `ARRAY[${segments.map((segment) => escapeLiteral(segment)).join(', ')}]::text[]`;
}
