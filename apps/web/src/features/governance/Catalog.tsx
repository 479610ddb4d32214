import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Input, Label, SearchField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { ItemSelect } from '../../components/ItemSelect';
import { DescribeDataset } from '../modelling/AiAssist';
import { qualified } from './datasets';

/** One dataset's columns, its primary key columns marked. */
function DatasetDetail({ id, name, projectId }: { id: string; name: string; projectId: string }) {
  const dataset = useQuery({
    queryKey: ['catalog-dataset', id],
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets/{id}', { params: { path: { id } } })),
  });
  const key = new Set(dataset.data?.primary_key ?? []);
  return (
    <Card id="dataset-detail" title={name}>
      <DataTable
        caption={`Columns of ${name}`}
        rows={dataset.data?.columns}
        rowKey={(column) => column.name}
        pending={dataset.isPending}
        error={dataset.error}
        empty="No columns recorded."
        columns={[
          { header: 'Position', cell: (column) => column.position },
          {
            header: 'Name',
            cell: (column) => (
              <>
                {column.name}{' '}
                {key.has(column.name) ? (
                  <span className="badge">
                    <span className="visually-hidden">primary </span>key
                  </span>
                ) : null}
              </>
            ),
          },
          { header: 'Type', cell: (column) => column.type },
          { header: 'Source type', cell: (column) => column.source_type },
          { header: 'Nullable', cell: (column) => (column.nullable ? 'yes' : 'no') },
          {
            header: 'Precision/scale',
            cell: (column) =>
              column.precision === null
                ? '—'
                : column.scale === null
                  ? column.precision
                  : `${column.precision}, ${column.scale}`,
          },
        ]}
      />
      <DescribeDataset datasetId={id} projectId={projectId} />
    </Card>
  );
}

/** The catalog browser: the datasets discovery found, by connector and name, and their columns. */
export function Catalog() {
  const [connector, setConnector] = useState('all');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<{ id: string; name: string; projectId: string } | undefined>();
  const connectors = useConnectors();
  const datasets = useQuery({
    queryKey: ['catalog-datasets', connector],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/catalog/datasets', {
          params: { query: connector === 'all' ? {} : { connector_id: connector } },
        }),
      ),
  });
  const names = new Map((connectors.data?.items ?? []).map((c) => [c.id, c.name]));
  const term = search.trim().toLowerCase();
  const shown = (datasets.data?.items ?? []).filter((d) => qualified(d).toLowerCase().includes(term));
  return (
    <>
      <div className="row">
        <ItemSelect
          label="Connector"
          isRequired={false}
          items={[{ id: 'all', name: 'All connectors' }, ...(connectors.data?.items ?? [])]}
          value={connector}
          onChange={setConnector}
        />
        <SearchField value={search} onChange={setSearch}>
          <Label>Search datasets</Label>
          <Input />
          <Button className="secondary">✕</Button>
        </SearchField>
      </div>
      {/* Two empty states: nothing discovered yet, or nothing matches the search. */}
      <DataTable
        caption="Datasets in the catalog"
        rows={datasets.data ? shown : undefined}
        rowKey={(dataset) => dataset.id}
        pending={datasets.isPending}
        error={datasets.error ?? connectors.error}
        empty={
          datasets.data?.items.length === 0
            ? 'No datasets yet: discover a connector on the Connectors screen.'
            : `No datasets match “${search.trim()}”.`
        }
        columns={[
          { header: 'Dataset', cell: (dataset) => qualified(dataset) },
          { header: 'Connector', cell: (dataset) => names.get(dataset.connector_id) ?? '—' },
          { header: 'Primary key', cell: (dataset) => dataset.primary_key.join(', ') || '—' },
          {
            header: 'Estimated rows',
            cell: (dataset) => (dataset.row_estimate === null ? '—' : dataset.row_estimate.toLocaleString()),
          },
          { header: 'Discovered', cell: (dataset) => new Date(dataset.discovered_at).toLocaleString() },
        ]}
        actions={(dataset) => (
          <Button
            className="secondary"
            aria-label={`Columns of ${qualified(dataset)}`}
            onPress={() => setSelected({ id: dataset.id, name: qualified(dataset), projectId: dataset.project_id })}
          >
            Columns
          </Button>
        )}
      />
      {selected ? <DatasetDetail key={selected.id} {...selected} /> : null}
    </>
  );
}
