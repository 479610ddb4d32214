/**
 * What a model run read and wrote, for the lineage area. Each model built (views and tables; an
 * ephemeral model builds nothing) is an output, named as lineage names the built-in warehouse's
 * relations (`postgres://host:port`, `database.schema.table`), so a model's relation is the same
 * dataset as the one a pipeline or an export reads through a warehouse connector. A model's inputs are
 * the models it refers to and the sources it reads; an ephemeral model is inlined, so its own inputs
 * stand for it. Column lineage comes from the model's own SELECT where the parser can tell (a column
 * taken from an ephemeral model, or `*`, has none).
 */
import type { RunDataset, RunIo } from '../../governance/lineage/service.js';
import type { Compiler, Placement } from './compile.js';
import type { Materialization } from './repository.js';
import { columnLineage, type Upstream } from './sql.js';

export interface WarehouseServer {
  host: string;
  port: number;
  database: string;
}

export function modelRunLineage(run: {
  runId: string;
  projectId: string;
  server: WarehouseServer;
  placement: Placement;
  compiler: Compiler;
  materializationOf: (name: string) => Materialization | undefined;
  /** The models the run built, with the rows a table holds (null for a view). */
  built: Array<{ name: string; rows: number | null }>;
}): RunIo {
  const { server, placement, compiler } = run;
  const namespace = `postgres://${server.host}:${server.port}`;
  const relation = (schema: string, table: string) => ({ namespace, name: `${server.database}.${schema}.${table}` });
  const keyOf = (upstream: Upstream) =>
    'model' in upstream ? `model:${upstream.model}` : `source:${upstream.source.schema}.${upstream.source.table}`;

  const inputs: RunDataset[] = [];
  const inputIndex = new Map<string, number>();
  const inputOf = (upstream: Upstream): number => {
    const key = keyOf(upstream);
    let index = inputIndex.get(key);
    if (index === undefined) {
      index = inputs.length;
      inputs.push({
        ol:
          'model' in upstream
            ? relation(placement.modelSchema, upstream.model)
            : relation(placement.sourceSchema(upstream.source.schema), upstream.source.table),
      });
      inputIndex.set(key, index);
    }
    return index;
  };
  /** The relations a model reads, through the ephemeral models it inlines. */
  const upstreamOf = (name: string, trail: string[] = []): Upstream[] => {
    const template = compiler.templateOf(name);
    const found: Upstream[] = template.sources.map((source) => ({ source }));
    for (const ref of template.refs) {
      if (run.materializationOf(ref) !== 'ephemeral') found.push({ model: ref });
      else if (!trail.includes(ref)) found.push(...upstreamOf(ref, [...trail, ref]));
    }
    return found;
  };

  const outputs: RunDataset[] = run.built.map(({ name, rows }) => {
    for (const upstream of upstreamOf(name)) inputOf(upstream);
    const columns = columnLineage(compiler.templateOf(name))
      .map((c) => ({
        column: c.column,
        inputs: c.inputs
          .filter((i) => i.column !== '*' && !('model' in i && run.materializationOf(i.model) === 'ephemeral'))
          .map((i) => ({ dataset: inputOf(i), field: i.column })),
      }))
      .filter((c) => c.inputs.length > 0);
    return {
      ol: relation(placement.modelSchema, name),
      ...(rows === null ? {} : { rowCount: rows }),
      ...(columns.length ? { columns } : {}),
    };
  });
  return { runId: run.runId, projectId: run.projectId, job: { kind: 'model_run', itemId: null }, inputs, outputs };
}
