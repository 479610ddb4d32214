/**
 * From a project's models to the SQL that runs: refs become the project's model relations (or, for
 * an ephemeral model, a CTE inlined into the model that uses it), sources the project's own
 * warehouse schemas, and the result must parse as one SELECT.
 */
import type { Materialization } from './repository.js';
import { ident, ModelSqlError, parseSelect, parseTemplate, render, type ParsedTemplate } from './sql.js';

export interface CompilableModel {
  name: string;
  sql: string;
  materialization: Materialization;
}

/** Where a project's relations live in the warehouse. */
export interface Placement {
  /** The PostgreSQL schema the project's models are built in. */
  modelSchema: string;
  /** The PostgreSQL schema of the project's warehouse schema `name` (a `source`). */
  sourceSchema(name: string): string;
}

const ephemeralName = (name: string) => ident(`__svc_ephemeral_${name}`);

export function relationOf(placement: Placement, name: string): string {
  return `${ident(placement.modelSchema)}.${ident(name)}`;
}

export function createCompiler(models: CompilableModel[], placement: Placement) {
  const byName = new Map(models.map((m) => [m.name, m]));
  const templates = new Map<string, ParsedTemplate>();
  const templateOf = (name: string): ParsedTemplate => {
    let template = templates.get(name);
    if (!template) {
      const model = byName.get(name);
      if (!model) throw new ModelSqlError(`ref('${name}') names no model of this project`);
      template = parseTemplate(model.sql);
      templates.set(name, template);
    }
    return template;
  };

  /** `template` with its refs resolved (`self`'s relation for `this`); ephemeral refs are CTE names, collected in `ctes`. */
  const renderTemplate = (
    template: ParsedTemplate,
    self: string,
    incremental: boolean,
    ctes: Map<string, string>,
    trail: string[],
  ): string =>
    render(template.parts, {
      incremental,
      this: relationOf(placement, self),
      source: (schema, table) => `${ident(placement.sourceSchema(schema))}.${ident(table)}`,
      ref: (target) => {
        const model = byName.get(target);
        if (!model) throw new ModelSqlError(`ref('${target}') names no model of this project`);
        if (model.materialization !== 'ephemeral') return relationOf(placement, target);
        if (trail.includes(target))
          throw new ModelSqlError(`ephemeral models form a cycle: ${[...trail, target].join(' -> ')}`);
        if (!ctes.has(target))
          ctes.set(target, renderTemplate(templateOf(target), target, false, ctes, [...trail, target]));
        return ephemeralName(target);
      },
    });

  /** Ephemeral models used come first as CTEs, in dependency order; the result must be one SELECT. */
  const finish = (body: string, ctes: Map<string, string>): string => {
    const trimmed = body.trim().replace(/;\s*$/, '');
    const compiled = ctes.size
      ? `with ${[...ctes].map(([cte, sql]) => `${ephemeralName(cte)} as (\n${sql.trim()}\n)`).join(',\n')}\nselect * from (\n${trimmed}\n) as "__svc_model"`
      : trimmed;
    parseSelect(compiled);
    return compiled;
  };

  return {
    templateOf,
    /** The SELECT a model runs as: with `incremental`, the `{% if is_incremental() %}` parts are kept. */
    compile(name: string, options: { incremental?: boolean; sql?: string } = {}): string {
      const template = options.sql === undefined ? templateOf(name) : parseTemplate(options.sql);
      const ctes = new Map<string, string>();
      return finish(renderTemplate(template, name, options.incremental ?? false, ctes, [name]), ctes);
    },
    /** Other SQL in the context of model `self` (a custom data test): refs, sources and this resolved. */
    compileSql(text: string, self: string): string {
      const ctes = new Map<string, string>();
      return finish(renderTemplate(parseTemplate(text), self, false, ctes, [self]), ctes);
    },
  };
}

export type Compiler = ReturnType<typeof createCompiler>;
