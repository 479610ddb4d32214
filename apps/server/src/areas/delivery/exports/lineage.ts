/**
 * What an export run read and wrote, for the lineage area. The input is the source dataset (a
 * connector's dataset, or the table a pipeline writes); a warehouse query names no dataset (its
 * tables are not parsed out of it). The outputs are named the OpenLineage way by destination: each
 * file (`file://<host>` and its absolute path, `s3://<bucket>` and its key, `sftp://host:port` and its
 * path), the table of a database (`postgres://host:port` and `database.schema.table`,
 * `mysql://host:port` and `database.table`), or the endpoint an HTTP destination posts to.
 */
import os from 'node:os';
import path from 'node:path';
import { datasetOf } from '../../governance/lineage/openlineage.js';
import type { RunDataset, RunIo } from '../../governance/lineage/service.js';
import type { ExportFileRecord, ExportRow } from './repository.js';
import type { PipelineOutput } from './source.js';

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The output a file of a run is, by where it was written. */
function fileDataset(name: string, projectFolder: string, rows: number): RunDataset {
  // s3://bucket/key: the key; sftp://host:port/path: the path, from its leading slash (as the SFTP
  // files connector names its datasets).
  const remote = /^(s3|sftp):\/\/([^/]+)(\/.*)$/.exec(name);
  if (remote)
    return {
      ol: { namespace: `${remote[1]}://${remote[2]}`, name: remote[1] === 's3' ? remote[3]!.slice(1) : remote[3]! },
      rowCount: rows,
    };
  return { ol: { namespace: `file://${os.hostname()}`, name: path.join(projectFolder, name) }, rowCount: rows };
}

export function exportLineage(run: {
  runId: string;
  row: ExportRow;
  files: ExportFileRecord[];
  delivered: number;
  projectFolder: string;
  pipelineOutput?: PipelineOutput;
}): RunIo {
  const { row } = run;
  const source = row.source;
  const inputs: RunDataset[] =
    source.kind === 'connector' && source.connector_id && source.dataset
      ? [{ connector_id: source.connector_id, namespace: source.namespace ?? null, name: source.dataset }]
      : source.kind === 'pipeline' && run.pipelineOutput
        ? [
            {
              connector_id: run.pipelineOutput.connector_id,
              namespace: run.pipelineOutput.namespace,
              name: run.pipelineOutput.table,
            },
          ]
        : [];
  // Column by column when every column of the source goes out as it is.
  const copy = inputs.length && !row.columns ? { copyOf: 0 } : {};
  const destination = row.destination;
  const kind = str(destination['kind']);
  let outputs: RunDataset[];
  if (kind === 'database') {
    // Named as a connector of the same engine names its tables.
    const engine = str(destination['engine']) === 'mysql' ? 'mysql' : 'postgres';
    const schema = engine === 'postgres' ? str(destination['schema']) || 'public' : null;
    outputs = [
      {
        ol: datasetOf({ kind: engine, config: destination }, schema, str(destination['table'])),
        rowCount: run.delivered,
      },
    ];
  } else if (kind === 'http') {
    const url = new URL(str(destination['url']));
    outputs = [{ ol: { namespace: `${url.protocol}//${url.host}`, name: url.pathname }, rowCount: run.delivered }];
  } else outputs = run.files.map((file) => fileDataset(file.name, run.projectFolder, file.rows));
  return {
    runId: run.runId,
    projectId: row.project_id,
    job: { kind: 'export', itemId: row.id },
    inputs,
    outputs: outputs.map((output) => ({ ...output, ...copy })),
  };
}
