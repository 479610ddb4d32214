import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Input, Label, ListBox, ListBoxItem, Popover, SearchField, Select, SelectValue } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { ErrorNotice } from '../../components/ErrorNotice';

/** A dataset's name with its namespace (schema), as `namespace.name`. */
const qualified = (dataset: { namespace: string | null; name: string }) => (dataset.namespace ? `${dataset.namespace}.${dataset.name}` : dataset.name);

/** One dataset's columns, its primary key columns marked. */
function DatasetDetail({ id, name }: { id: string; name: string }) {
  const dataset = useQuery({ queryKey: ['catalog-dataset', id], queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets/{id}', { params: { path: { id } } })) });
  const key = new Set(dataset.data?.primary_key ?? []);
  return (
    <section className="card" aria-labelledby="dataset-detail">
      <h2 id="dataset-detail">{name}</h2>
      {dataset.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={dataset.error} />
      {dataset.data && dataset.data.columns.length === 0 ? <p className="empty">No columns recorded.</p> : null}
      {dataset.data?.columns.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Columns of {name}</caption>
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Source type</th>
                <th scope="col">Nullable</th>
                <th scope="col">Precision/scale</th>
              </tr>
            </thead>
            <tbody>
              {dataset.data.columns.map((column) => (
                <tr key={column.name}>
                  <td>{column.position}</td>
                  <td>
                    {column.name}{' '}
                    {key.has(column.name) ? (
                      <span className="badge">
                        <span className="visually-hidden">primary </span>key
                      </span>
                    ) : null}
                  </td>
                  <td>{column.type}</td>
                  <td>{column.source_type}</td>
                  <td>{column.nullable ? 'yes' : 'no'}</td>
                  <td>{column.precision === null ? '—' : column.scale === null ? column.precision : `${column.precision}, ${column.scale}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/** The catalog browser: the datasets discovery found, by connector and name, and their columns. */
export function Catalog() {
  const [connector, setConnector] = useState('all');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<{ id: string; name: string } | undefined>();
  const connectors = useConnectors();
  const datasets = useQuery({
    queryKey: ['catalog-datasets', connector],
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: connector === 'all' ? {} : { connector_id: connector } } })),
  });
  const names = new Map((connectors.data?.items ?? []).map((c) => [c.id, c.name]));
  const term = search.trim().toLowerCase();
  const shown = (datasets.data?.items ?? []).filter((d) => qualified(d).toLowerCase().includes(term));
  return (
    <>
      <div className="row">
        <Select selectedKey={connector} onSelectionChange={(key) => setConnector(String(key))}>
          <Label>Connector</Label>
          <Button>
            <SelectValue />
          </Button>
          <Popover>
            <ListBox>
              <ListBoxItem id="all">All connectors</ListBoxItem>
              {(connectors.data?.items ?? []).map((c) => (
                <ListBoxItem key={c.id} id={c.id}>
                  {c.name}
                </ListBoxItem>
              ))}
            </ListBox>
          </Popover>
        </Select>
        <SearchField value={search} onChange={setSearch}>
          <Label>Search datasets</Label>
          <Input />
          <Button className="secondary">✕</Button>
        </SearchField>
      </div>
      {datasets.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={datasets.error ?? connectors.error} />
      {datasets.data && datasets.data.items.length === 0 ? <p className="empty">No datasets yet: discover a connector on the Connectors screen.</p> : null}
      {datasets.data?.items.length && shown.length === 0 ? <p className="empty">No datasets match “{search.trim()}”.</p> : null}
      {shown.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Datasets in the catalog</caption>
            <thead>
              <tr>
                <th scope="col">Dataset</th>
                <th scope="col">Connector</th>
                <th scope="col">Primary key</th>
                <th scope="col">Estimated rows</th>
                <th scope="col">Discovered</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((dataset) => (
                <tr key={dataset.id}>
                  <td>{qualified(dataset)}</td>
                  <td>{names.get(dataset.connector_id) ?? '—'}</td>
                  <td>{dataset.primary_key.join(', ') || '—'}</td>
                  <td>{dataset.row_estimate === null ? '—' : dataset.row_estimate.toLocaleString()}</td>
                  <td>{new Date(dataset.discovered_at).toLocaleString()}</td>
                  <td>
                    <Button className="secondary" aria-label={`Columns of ${qualified(dataset)}`} onPress={() => setSelected({ id: dataset.id, name: qualified(dataset) })}>
                      Columns
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {selected ? <DatasetDetail key={selected.id} {...selected} /> : null}
    </>
  );
}
