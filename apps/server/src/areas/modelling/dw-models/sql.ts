/**
 * A model's SQL: a SELECT with template expressions, read with PostgreSQL's own scanner and parser
 * (libpg_query, compiled to WebAssembly), never with regular expressions:
 * - `{{ ref('name') }}` another model of the project, `{{ source('schema', 'table') }}` a loaded
 *   table of one of the project's warehouse schemas, `{{ this }}` the model's own relation;
 * - `{% if is_incremental() %} ... {% else %} ... {% endif %}` a part kept only when an incremental
 *   model adds to its existing table.
 * The scanner gives comments and string constants as single tokens, so a `{{ ref('x') }}` inside
 * either is text, not a dependency. The compiled SQL is parsed again: it must be one SELECT.
 */
import type * as LibPgQuery from 'libpg-query';

let parser: typeof LibPgQuery | undefined;
let loaded: Promise<void> | undefined;
/** The parser and its WebAssembly module, loaded once per process, by the first process that reads a model. */
export const parserReady = (): Promise<void> =>
  (loaded ??= import('libpg-query').then(async (module) => {
    await module.loadModule();
    parser = module;
  }));
/** The loaded parser; parserReady() comes first, as libpg_query's own sync calls require. */
const loadedParser = () => {
  if (!parser) throw new Error('the SQL parser is not loaded: await parserReady() first');
  return parser;
};

export class ModelSqlError extends Error {
  constructor(
    message: string,
    /** Offset in the SQL (0-based) where the problem is, when known. */
    readonly position?: number,
  ) {
    super(message);
  }
}

interface Token {
  start: number;
  end: number;
  text: string;
  tokenName: string;
}

export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'ref'; name: string }
  | { kind: 'source'; schema: string; table: string }
  | { kind: 'this' }
  | { kind: 'if_incremental'; then: TemplatePart[]; otherwise: TemplatePart[] };

export interface ParsedTemplate {
  parts: TemplatePart[];
  /** Models referred to (in either branch of an incremental block), in order of first use. */
  refs: string[];
  sources: Array<{ schema: string; table: string }>;
}

const isComment = (t: Token) => t.tokenName === 'SQL_COMMENT' || t.tokenName === 'C_COMMENT';

/** The value of a string argument: 'text' (a string constant) or "text" (a quoted identifier). */
function stringArgument(token: Token | undefined): string | undefined {
  if (!token) return undefined;
  const { text } = token;
  if (token.tokenName === 'SCONST' && text.startsWith("'") && text.endsWith("'"))
    return text.slice(1, -1).replaceAll("''", "'");
  if (token.tokenName === 'IDENT' && text.startsWith('"') && text.endsWith('"'))
    return text.slice(1, -1).replaceAll('""', '"');
  return undefined;
}

/** `ref('x')`, `source('s', 't')`, `this` (the tokens between `{{` and `}}`). */
function expression(tokens: Token[], at: number): TemplatePart {
  const words = tokens.map((t) => t.text);
  const [head] = words;
  const shaped = (...pattern: Array<string | null>) =>
    words.length === pattern.length && pattern.every((p, i) => p === null || words[i]!.toLowerCase() === p);
  if (shaped('ref', '(', null, ')')) {
    const name = stringArgument(tokens[2]);
    if (name) return { kind: 'ref', name };
  }
  if (shaped('source', '(', null, ',', null, ')')) {
    const schema = stringArgument(tokens[2]);
    const table = stringArgument(tokens[4]);
    if (schema && table) return { kind: 'source', schema, table };
  }
  if (words.length === 1 && head?.toLowerCase() === 'this') return { kind: 'this' };
  throw new ModelSqlError(
    `unknown template expression {{ ${words.join(' ')} }}: use ref('model'), source('schema', 'table') or this`,
    at,
  );
}

/** Splits the SQL into text and template expressions. */
export function parseTemplate(sql: string): ParsedTemplate {
  let tokens: Token[];
  try {
    tokens = loadedParser().scanSync(sql).tokens as Token[];
  } catch (error) {
    throw new ModelSqlError(`the SQL cannot be read: ${(error as Error).message}`);
  }
  const refs: string[] = [];
  const sources: Array<{ schema: string; table: string }> = [];
  // The open blocks: the parts being filled, and for an if block where its else starts.
  const root: TemplatePart[] = [];
  const stack: Array<{ block: Extract<TemplatePart, { kind: 'if_incremental' }>; inElse: boolean; at: number }> = [];
  const current = () => {
    const top = stack[stack.length - 1];
    return top ? (top.inElse ? top.block.otherwise : top.block.then) : root;
  };
  let textFrom = 0;
  const flushText = (until: number) => {
    if (until > textFrom) current().push({ kind: 'text', text: sql.slice(textFrom, until) });
  };
  const adjacent = (a: Token | undefined, b: Token | undefined, left: string, right: string) =>
    a?.text === left && b?.text === right && a.end === b.start;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const second = tokens[i + 1];
    const isExpr = adjacent(open, second, '{', '{');
    const isBlock = adjacent(open, second, '{', '%');
    if (!isExpr && !isBlock) {
      if (open.text === '}' && adjacent(open, second, '}', '}'))
        throw new ModelSqlError('"}}" without an opening "{{"', open.start);
      continue;
    }
    const [closeLeft, closeRight] = isExpr ? ['}', '}'] : ['%', '}'];
    let j = i + 2;
    while (j < tokens.length && !adjacent(tokens[j], tokens[j + 1], closeLeft, closeRight)) j++;
    if (j >= tokens.length)
      throw new ModelSqlError(
        `"${open.text}${second!.text}" is never closed by "${closeLeft}${closeRight}"`,
        open.start,
      );
    const inner = tokens.slice(i + 2, j).filter((t) => !isComment(t));
    flushText(open.start);
    textFrom = tokens[j + 1]!.end;
    if (isExpr) {
      const part = expression(inner, open.start);
      if (part.kind === 'ref' && !refs.includes(part.name)) refs.push(part.name);
      if (part.kind === 'source' && !sources.some((s) => s.schema === part.schema && s.table === part.table))
        sources.push({ schema: part.schema, table: part.table });
      current().push(part);
    } else {
      const words = inner.map((t) => t.text.toLowerCase()).join(' ');
      if (words === 'if is_incremental ( )') {
        const block = { kind: 'if_incremental' as const, then: [], otherwise: [] };
        current().push(block);
        stack.push({ block, inElse: false, at: open.start });
      } else if (words === 'else') {
        const top = stack[stack.length - 1];
        if (!top || top.inElse)
          throw new ModelSqlError('{% else %} outside an {% if is_incremental() %} block', open.start);
        top.inElse = true;
      } else if (words === 'endif') {
        if (!stack.pop()) throw new ModelSqlError('{% endif %} without an {% if is_incremental() %}', open.start);
      } else {
        throw new ModelSqlError(
          `unknown block {% ${words} %}: only {% if is_incremental() %}, {% else %} and {% endif %}`,
          open.start,
        );
      }
    }
    i = j + 1;
  }
  if (stack.length) throw new ModelSqlError('{% if is_incremental() %} is never closed by {% endif %}', stack[0]!.at);
  flushText(sql.length);
  return { parts: root, refs, sources };
}

export interface RenderContext {
  ref(name: string): string;
  source(schema: string, table: string): string;
  this: string;
  incremental: boolean;
}

export function render(parts: TemplatePart[], context: RenderContext): string {
  return parts
    .map((part) => {
      switch (part.kind) {
        case 'text':
          return part.text;
        case 'ref':
          return context.ref(part.name);
        case 'source':
          return context.source(part.schema, part.table);
        case 'this':
          return context.this;
        case 'if_incremental':
          return render(context.incremental ? part.then : part.otherwise, context);
      }
    })
    .join('');
}

type Node = Record<string, unknown>;

/** Checks that `sql` is exactly one SELECT (no SELECT INTO); answers its parse tree. */
export function parseSelect(sql: string): Node {
  let tree: { stmts?: Array<{ stmt: Node }> };
  try {
    tree = loadedParser().parseSync(sql) as typeof tree;
  } catch (error) {
    const position = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails?.cursorPosition;
    throw new ModelSqlError(`the SQL does not parse: ${(error as Error).message}`, position);
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw new ModelSqlError(`must be one statement, found ${statements.length}`);
  const select = statements[0]!.stmt['SelectStmt'] as Node | undefined;
  if (!select) throw new ModelSqlError(`must be a SELECT, found ${Object.keys(statements[0]!.stmt)[0] ?? 'nothing'}`);
  if (select['intoClause']) throw new ModelSqlError('must be a SELECT without INTO');
  return select;
}

/** Every relation a parse tree reads by name (`schema.table` or `table`), CTE names excluded. */
export function relationsOf(tree: Node): Array<{ schema: string | null; name: string }> {
  const found: Array<{ schema: string | null; name: string }> = [];
  const ctes = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const cte = node['CommonTableExpr'] as Node | undefined;
    if (cte && typeof cte['ctename'] === 'string') ctes.add(cte['ctename']);
    const range = node['RangeVar'] as Node | undefined;
    if (range && typeof range['relname'] === 'string')
      found.push({ schema: (range['schemaname'] as string | undefined) ?? null, name: range['relname'] });
    for (const child of Object.values(node)) walk(child);
  };
  walk(tree);
  return found.filter((r) => r.schema !== null || !ctes.has(r.name));
}

/** A double-quoted identifier. */
export const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Where a relation in a model's SQL came from: a ref()'d model or a source() table. */
export type Upstream = { model: string } | { source: { schema: string; table: string } };

export interface ColumnLineage {
  column: string;
  /** The upstream columns it is computed from (`*`: all of them), as far as the parser can tell. */
  inputs: Array<Upstream & { column: string }>;
}

const REF_MARK = '__svc_ref';
const SOURCE_MARK = '__svc_source__';

/**
 * Column-level lineage of a model's own SELECT (its template, refs and sources resolved to marked
 * names): each output column with the upstream columns its expression names. Only what the parser
 * can tell: columns of a relation in the top-level FROM (by alias, or the only relation there);
 * columns from subqueries, CTEs or ambiguous names are left out, and a set operation gives nothing.
 */
export function columnLineage(template: ParsedTemplate): ColumnLineage[] {
  const sql = render(template.parts, {
    incremental: false,
    this: `${ident(`${REF_MARK}_this`)}.${ident('this')}`,
    ref: (name) => `${ident(REF_MARK)}.${ident(name)}`,
    source: (schema, table) => `${ident(`${SOURCE_MARK}${schema}`)}.${ident(table)}`,
  });
  let select: Node;
  try {
    select = parseSelect(sql);
  } catch {
    return [];
  }
  if (select['op'] && select['op'] !== 'SETOP_NONE') return [];
  const relations = new Map<string, Upstream>();
  const visitFrom = (item: unknown) => {
    const node = item as Node;
    const range = node['RangeVar'] as Node | undefined;
    if (range) {
      const schema = range['schemaname'] as string | undefined;
      const name = range['relname'] as string;
      const alias = ((range['alias'] as Node | undefined)?.['aliasname'] as string | undefined) ?? name;
      if (schema === REF_MARK) relations.set(alias, { model: name });
      else if (schema?.startsWith(SOURCE_MARK))
        relations.set(alias, { source: { schema: schema.slice(SOURCE_MARK.length), table: name } });
      return;
    }
    const join = node['JoinExpr'] as Node | undefined;
    if (join) {
      visitFrom(join['larg']);
      visitFrom(join['rarg']);
    }
  };
  for (const item of (select['fromClause'] as unknown[] | undefined) ?? []) visitFrom(item);
  const only = relations.size === 1 ? [...relations.values()][0] : undefined;
  const columnRefs = (value: unknown, found: Array<string[]>) => {
    if (Array.isArray(value)) return value.forEach((v) => columnRefs(v, found));
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const ref = node['ColumnRef'] as Node | undefined;
    if (ref) {
      found.push(
        ((ref['fields'] as Node[]) ?? []).map((f) =>
          f['A_Star'] ? '*' : String(((f['String'] as Node | undefined)?.['sval'] as string | undefined) ?? ''),
        ),
      );
      return;
    }
    if (node['SubLink'] || node['SelectStmt']) return; // a subquery's columns are its own
    for (const child of Object.values(node)) columnRefs(child, found);
  };
  const lineage: ColumnLineage[] = [];
  for (const item of (select['targetList'] as Node[] | undefined) ?? []) {
    const target = item['ResTarget'] as Node;
    const refs: Array<string[]> = [];
    columnRefs(target['val'], refs);
    const inputs: ColumnLineage['inputs'] = [];
    for (const fields of refs) {
      const [first, second] = fields;
      const upstream = fields.length === 2 ? relations.get(first!) : fields.length === 1 ? only : undefined;
      const column = fields.length === 2 ? second! : first!;
      if (upstream && !inputs.some((i) => JSON.stringify(i) === JSON.stringify({ ...upstream, column })))
        inputs.push({ ...upstream, column });
    }
    const named = target['name'] as string | undefined;
    const last = refs.length === 1 && refs[0]!.length ? refs[0]![refs[0]!.length - 1] : undefined;
    const isBareColumn = (target['val'] as Node | undefined)?.['ColumnRef'] !== undefined;
    const column = named ?? (isBareColumn ? last : undefined) ?? '?column?';
    lineage.push({ column, inputs });
  }
  return lineage;
}
