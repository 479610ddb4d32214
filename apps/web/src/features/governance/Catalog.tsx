import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form, Input, Label, SearchField } from 'react-aria-components';
import { api, unwrap, type JsonAnswer } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { Card } from '../../components/Card';
import { QueryState } from '../../components/QueryState';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormSubmit, TextAreaInput, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { navigate, useItemRoute } from '../../navigation';
import { DescribeDataset } from '../modelling/AiAssist';
import { qualified } from './datasets';
import { onSubmitted } from '../../components/form-data';

type DatasetDetailData = JsonAnswer<'/api/v1/catalog/datasets/{id}', 'get'>;
type CatalogColumn = DatasetDetailData['columns'][number];

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A dataset's description, owners and tags, as a form (catalog:write; a refusal shows the API's error). */
function DatasetNotes({ dataset }: { dataset: DatasetDetailData }) {
  const queries = useQueryClient();
  const save = useMutation({
    meta: { success: 'Dataset notes saved.' },
    mutationFn: (body: { description: string | null; owners: string[]; tags: string[] }) =>
      unwrap(api.PATCH('/api/v1/catalog/datasets/{id}', { params: { path: { id: dataset.id } }, body })),
    onSuccess: (saved) => {
      queries.setQueryData(['catalog-dataset', dataset.id], saved);
      void queries.invalidateQueries({ queryKey: ['catalog-datasets'] });
    },
  });
  const submit = onSubmitted(({ form, text }) => {
    const description = text('description');
    save.mutate({
      description: description || null,
      owners: list(String(form.get('owners') ?? '')),
      tags: list(String(form.get('tags') ?? '')),
    });
  });
  return (
    <Form onSubmit={submit} aria-label={`Notes of ${dataset.name}`}>
      <TextAreaInput name="description" label="Description" rows={2} defaultValue={dataset.description ?? ''} />
      <TextInput
        name="owners"
        label="Owners"
        defaultValue={dataset.owners.join(', ')}
        description="Who answers for it: user names, e-mail addresses or teams, separated by commas."
      />
      <TextInput
        name="tags"
        label="Dataset tags"
        defaultValue={dataset.tags.join(' ')}
        description="Lower-case words, separated by spaces."
      />
      <FormSubmit label="Save notes" error={save.error} isDisabled={save.isPending} />
    </Form>
  );
}

/** A column's tags and the suggestions waiting: Confirm adds a suggested tag, Dismiss turns it down for good. */
function ColumnTags({ datasetId, column }: { datasetId: string; column: CatalogColumn }) {
  const queries = useQueryClient();
  const change = useMutation({
    mutationFn: (body: { tags?: string[]; dismiss?: string[] }) =>
      unwrap(
        api.PATCH('/api/v1/catalog/datasets/{id}/columns/{column}', {
          params: { path: { id: datasetId, column: column.name } },
          body,
        }),
      ),
    onSuccess: (saved) => queries.setQueryData(['catalog-dataset', datasetId], saved),
  });
  return (
    <div className="tags">
      {column.tags.map((tag) => (
        <span key={tag} className="badge">
          {tag}
        </span>
      ))}
      {column.suggested_tags.length ? (
        <span className="muted">
          suggested: {column.suggested_tags.join(', ')}{' '}
          <Button
            className="secondary"
            aria-label={`Confirm ${column.suggested_tags.join(', ')} on ${column.name}`}
            onPress={() => change.mutate({ tags: [...column.tags, ...column.suggested_tags] })}
            isDisabled={change.isPending}
          >
            Confirm
          </Button>{' '}
          <Button
            className="secondary"
            aria-label={`Dismiss ${column.suggested_tags.join(', ')} on ${column.name}`}
            onPress={() => change.mutate({ dismiss: column.suggested_tags })}
            isDisabled={change.isPending}
          >
            Dismiss
          </Button>
        </span>
      ) : null}
      <ErrorNotice error={change.error} />
    </div>
  );
}

/** One dataset: its notes, freshness and columns (primary key marked, tags and suggestions), and its classification. */
function DatasetDetail({ id }: { id: string }) {
  const queries = useQueryClient();
  const dataset = useQuery({
    queryKey: ['catalog-dataset', id],
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets/{id}', { params: { path: { id } } })),
  });
  const classify = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/catalog/datasets/{id}/classify', { params: { path: { id } } })),
    onSuccess: (classified) => {
      const { sampled_rows: _sampled, ...detail } = classified;
      queries.setQueryData(['catalog-dataset', id], detail);
    },
  });
  const key = new Set(dataset.data?.primary_key ?? []);
  const data = dataset.data;
  // Opened by its address (/catalog/<id>), so its name comes with it.
  if (!data) return <QueryState pending={dataset.isPending} error={dataset.error} />;
  const name = qualified(data);
  return (
    <Card id="dataset-detail" title={name}>
      <p className="muted">
        {data.last_written_at
          ? `Last written ${new Date(data.last_written_at).toLocaleString()}${data.last_row_count !== null ? ` (${data.last_row_count.toLocaleString()} rows)` : ''}.`
          : 'No run of this service has written into it.'}
      </p>
      <DatasetNotes key={`${data.id}-${data.description}-${data.tags.join()}-${data.owners.join()}`} dataset={data} />
      <div className="row">
        <Button className="secondary" onPress={() => classify.mutate()} isDisabled={classify.isPending}>
          Find personal data
        </Button>
        <Button className="secondary" onPress={() => navigate(`/lineage/${encodeURIComponent(`catalog:${id}`)}`)}>
          Lineage
        </Button>
        {classify.data ? (
          <span role="status">{`${classify.data.sampled_rows} rows sampled; suggestions below.`}</span>
        ) : null}
      </div>
      <ErrorNotice error={classify.error} />
      <DataTable
        caption={`Columns of ${name}`}
        rows={data.columns}
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
          { header: 'Tags', cell: (column) => <ColumnTags datasetId={id} column={column} /> },
        ]}
      />
      <DescribeDataset datasetId={id} projectId={data.project_id} />
    </Card>
  );
}

/** The catalog browser: the datasets discovery found, by connector and name, and their columns. */
export function Catalog() {
  const [connector, setConnector] = useState('all');
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  // The open dataset is in the address (/catalog/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/catalog');
  const connectors = useConnectors();
  const datasets = useQuery({
    queryKey: ['catalog-datasets', connector, tag.trim()],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/catalog/datasets', {
          params: {
            query: {
              ...(connector === 'all' ? {} : { connector_id: connector }),
              ...(tag.trim() ? { tag: tag.trim() } : {}),
            },
          },
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
        <TextInput label="Tag" value={tag} onChange={setTag} description="On the dataset or a column" />
      </div>
      {/* Two empty states: nothing discovered yet, or nothing matches the search. */}
      <DataTable
        caption="Datasets in the catalog"
        rows={datasets.data ? shown : undefined}
        rowKey={(dataset) => dataset.id}
        pending={datasets.isPending}
        error={datasets.error ?? connectors.error}
        empty={
          datasets.data?.items.length === 0 && !tag.trim()
            ? 'No datasets yet: discover a connector on the Connectors screen.'
            : `No datasets match${search.trim() ? ` “${search.trim()}”` : ''}${tag.trim() ? ` with the tag “${tag.trim()}”` : ''}.`
        }
        columns={[
          { header: 'Dataset', cell: (dataset) => qualified(dataset) },
          { header: 'Connector', cell: (dataset) => names.get(dataset.connector_id) ?? '—' },
          { header: 'Primary key', cell: (dataset) => dataset.primary_key.join(', ') || '—' },
          { header: 'Tags', cell: (dataset) => dataset.tags.join(' ') || '—' },
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
            onPress={() => setSelected(dataset.id)}
          >
            Columns
          </Button>
        )}
      />
      {selected ? <DatasetDetail key={selected} id={selected} /> : null}
    </>
  );
}
