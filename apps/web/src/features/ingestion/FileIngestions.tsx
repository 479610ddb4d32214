import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';
import {
  CheckboxField,
  ChoiceField,
  FormSubmit,
  SecretField,
  TextInput,
  secretOf,
  plainChoices,
} from '../../components/fields';
import { useCurrentProject } from '../../project-context';
import { onSubmitted } from '../../components/form-data';
import { RowButton } from '../../components/RowButton';

type IngestionBody = JsonBody<'/api/v1/file-ingestions', 'post'>;
type FormatType = IngestionBody['format']['type'];

/** A new file ingestion of the current project: files uploaded or found in a folder of the project, loaded into a table. */
function NewFileIngestion({
  projectId,
  projectName,
  onCreated,
}: {
  projectId: string;
  projectName: string;
  onCreated: () => void;
}) {
  const queries = useQueryClient();
  const connectors = useConnectors();
  const [source, setSource] = useState<'upload' | 'folder' | 'sftp' | 's3'>('upload');
  const [destination, setDestination] = useState<string | undefined>();
  const [server, setServer] = useState<string | undefined>();
  const inProject = (connectors.data?.items ?? []).filter((c) => c.project_id === projectId);
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'File ingestion created.' },
    mutationFn: (body: IngestionBody) => unwrap(api.POST('/api/v1/file-ingestions', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      setDestination(undefined);
      void queries.invalidateQueries({ queryKey: ['file-ingestions'] });
      onCreated();
    },
  });
  const submit = onSubmitted(({ form, text }) => {
    create.mutate({
      project_id: projectId,
      name: text('name'),
      source:
        source === 'upload'
          ? { kind: 'upload' }
          : source === 'sftp'
            ? {
                kind: 'sftp',
                connector_id: server ?? '',
                ...(text('path') ? { path: text('path') } : {}),
                ...(text('glob') ? { glob: text('glob') } : {}),
              }
            : source === 's3'
              ? {
                  kind: 's3',
                  bucket: text('bucket'),
                  ...(text('endpoint') ? { endpoint: text('endpoint') } : {}),
                  ...(text('region') ? { region: text('region') } : {}),
                  ...(text('prefix') ? { prefix: text('prefix') } : {}),
                  ...(text('glob') ? { glob: text('glob') } : {}),
                  ...(form.get('force_path_style') ? { force_path_style: true } : {}),
                  ...(text('access_key_id') ? { access_key_id: text('access_key_id') } : {}),
                  ...(secretOf(form, 'secret_access_key')
                    ? { secret_access_key: secretOf(form, 'secret_access_key') }
                    : {}),
                }
              : { kind: 'folder', path: text('path'), ...(text('glob') ? { glob: text('glob') } : {}) },
      format: {
        type: text('format') as FormatType,
        ...(text('archive_members') ? { archive_members: text('archive_members') } : {}),
      },
      destination: {
        connector_id: destination ?? '',
        table: text('table'),
        mode: text('mode') as 'append' | 'overwrite',
      },
      on_error: text('on_error') as IngestionBody['on_error'],
    });
  });
  return (
    <Card id="new-file-ingestion" title="New file ingestion">
      <Form key={formKey} onSubmit={submit}>
        <p className="muted">
          In project {projectName}. A .zip file is expanded: each member is loaded as its own file.
        </p>
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Files come from"
          value={source}
          onChange={setSource}
          orientation="horizontal"
          choices={[
            { value: 'upload', label: 'uploads' },
            { value: 'folder', label: "a folder of the project's files" },
            { value: 'sftp', label: 'an SFTP server' },
            { value: 's3', label: 'an S3 bucket' },
          ]}
        />
        {source === 's3' ? (
          <>
            <TextInput name="bucket" label="Bucket" isRequired spellCheck={false} />
            <TextInput
              name="prefix"
              label="Prefix"
              description="A folder of the bucket, e.g. exports (default: the whole bucket)"
            />
            <TextInput
              name="glob"
              label="File names"
              description="A glob over the names under the prefix, e.g. *.csv (default: every file)"
            />
            <TextInput
              name="endpoint"
              label="Endpoint"
              type="url"
              description="An S3-compatible store (MinIO, Ceph, R2...), e.g. https://s3.example.com; AWS when empty"
            />
            <TextInput name="region" label="Region" description="e.g. eu-west-1 (default us-east-1)" />
            <CheckboxField name="force_path_style" label="Bucket in the path (the default when an endpoint is given)" />
            <TextInput name="access_key_id" label="Access key id" spellCheck={false} autoComplete="off" />
            <SecretField name="secret_access_key" label="Secret access key" stored={false} />
          </>
        ) : null}
        {source === 'sftp' ? (
          <>
            <ItemSelect
              label="SFTP connector"
              items={inProject.filter((c) => c.kind === 'sftp')}
              value={server}
              onChange={setServer}
              empty="No SFTP connectors in this project: add one under Connectors"
            />
            <TextInput
              name="path"
              label="Remote directory"
              description="Relative to the connector's directory (default: that directory)"
            />
            <TextInput name="glob" label="File names" description="A glob, e.g. *.{csv,zip} (default: every file)" />
          </>
        ) : null}
        {source === 'folder' ? (
          <>
            <TextInput
              name="path"
              label="Folder"
              isRequired
              description="Inside the project's folder of the files root"
            />
            <TextInput name="glob" label="File names" description="A glob, e.g. *.csv (default: every file)" />
          </>
        ) : null}
        <ChoiceField
          name="format"
          label="Format"
          defaultValue="csv"
          orientation="horizontal"
          choices={[
            { value: 'csv', label: 'CSV' },
            { value: 'ndjson', label: 'NDJSON' },
            { value: 'json', label: 'JSON' },
            { value: 'xlsx', label: 'Excel' },
            { value: 'parquet', label: 'Parquet' },
          ]}
        />
        <TextInput
          name="archive_members"
          label="Members of zip archives"
          description="A glob of the members to load (default: those of the format, e.g. *.{csv,csv.gz,txt})"
        />
        <ItemSelect
          label="Destination connector"
          items={inProject}
          value={destination}
          onChange={setDestination}
          empty="No connectors in this project"
        />
        <TextInput name="table" label="Table" isRequired description="Created with the file's columns when missing" />
        <ChoiceField
          name="mode"
          label="Write mode"
          defaultValue="append"
          orientation="horizontal"
          choices={plainChoices('append', 'overwrite')}
        />
        <ChoiceField
          name="on_error"
          label="A bad row"
          defaultValue="abort"
          choices={[
            { value: 'abort', label: 'fails its file', description: 'Nothing of the file is loaded.' },
            { value: 'skip_file', label: 'skips its file', description: 'The run goes on with the next file.' },
            { value: 'continue', label: 'is left out', description: 'Counted, up to the error limit.' },
          ]}
        />
        <FormSubmit label="Create file ingestion" error={create.error} isDisabled={create.isPending} />
      </Form>
    </Card>
  );
}

/** Sends a file to an upload ingestion: streamed by the server to disk, then loaded. */
function Upload({ id, name }: { id: string; name: string }) {
  const queries = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    meta: { success: 'File uploaded; its load has started.' },
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return unwrap(api.POST('/api/v1/file-ingestions/{id}/files', { params: { path: { id } }, body: form as never }));
    },
    onSuccess: () => {
      if (input.current) input.current.value = '';
      void queries.invalidateQueries({ queryKey: ['file-ingestions', id, 'files'] });
    },
  });
  return (
    <div className="upload">
      <label>
        File to upload to {name}
        <input
          ref={input}
          type="file"
          onChange={(event) => event.currentTarget.files?.[0] && upload.mutate(event.currentTarget.files[0])}
        />
      </label>
      {upload.isPending ? <span role="status">Uploading…</span> : null}
      <ErrorNotice error={upload.error} />
    </div>
  );
}

/** One file ingestion's load history: a row per file, with a reload of a kept file. */
function FileHistory({ id, name, uploads }: { id: string; name: string; uploads: boolean }) {
  const queries = useQueryClient();
  const files = useQuery({
    queryKey: ['file-ingestions', id, 'files'],
    queryFn: () => unwrap(api.GET('/api/v1/file-ingestions/{id}/files', { params: { path: { id } } })),
    refetchInterval: 3000,
  });
  const reload = useMutation({
    mutationFn: (fileId: string) =>
      unwrap(
        api.POST('/api/v1/file-ingestions/{id}/files/{file_id}/reload', { params: { path: { id, file_id: fileId } } }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['file-ingestions', id, 'files'] }),
  });
  return (
    <Card id="file-history" title={`Files of ${name}`}>
      {uploads ? <Upload id={id} name={name} /> : null}
      <DataTable
        caption={`Load history of ${name}`}
        read={files}
        error={reload.error}
        empty="No files yet."
        columns={[
          { header: 'File', cell: (file) => file.name },
          { header: 'Status', cell: (file) => <span className={`status ${file.status}`}>{file.status}</span> },
          { header: 'Size', cell: (file) => file.size.toLocaleString() },
          {
            header: 'Rows loaded',
            cell: (file) => `${file.rows_loaded.toLocaleString()} of ${file.rows_parsed.toLocaleString()}`,
          },
          {
            header: 'Errors',
            cell: (file) =>
              file.first_error
                ? `${file.error_count}: line ${file.first_error.line}${file.first_error.column ? `, ${file.first_error.column}` : ''}: ${file.first_error.message}`
                : file.error_count,
          },
          { header: 'Received', cell: (file) => new Date(file.created_at).toLocaleString() },
        ]}
        actions={(file) =>
          file.available ? (
            <RowButton label={`Reload ${file.name}`} mutation={reload} id={file.id}>
              Reload
            </RowButton>
          ) : null
        }
      />
    </Card>
  );
}

/** File ingestions: their sources and destinations, a look at a folder or bucket now, and each one's file history. */
export function FileIngestions() {
  const queries = useQueryClient();
  const { projectId, project } = useCurrentProject();
  const list = useQuery({
    queryKey: ['file-ingestions', 'project', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/file-ingestions', { params: { query: { project_id: projectId! } } })),
  });
  // The open ingestion is in the address (/file-ingestions/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/file-ingestions');
  const open = list.data?.items.find((row) => row.id === selected);
  const run = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/file-ingestions/{id}/run', { params: { path: { id } } })),
    onSuccess: (_r, id) => void queries.invalidateQueries({ queryKey: ['file-ingestions', id, 'files'] }),
  });
  return (
    <WithCreateForm
      base="/file-ingestions"
      label="New file ingestion"
      back="File ingestions"
      isDisabled={!project}
      form={(done) =>
        project ? (
          <NewFileIngestion key={project.id} projectId={project.id} projectName={project.name} onCreated={done} />
        ) : null
      }
    >
      <DataTable
        caption="File ingestions"
        read={list}
        rowProps={(row) => ({ 'aria-selected': row.id === selected })}
        error={run.error}
        empty="No file ingestions in this project yet."
        columns={[
          { header: 'Name', cell: (row) => row.name },
          { header: 'Source', cell: (row) => row.source.kind },
          { header: 'Format', cell: (row) => String(row.format['type'] ?? '') },
          { header: 'Destination table', cell: (row) => String(row.destination['table'] ?? '') },
          { header: 'On error', cell: (row) => row.on_error },
        ]}
        actions={(row) => (
          <div className="row">
            <Button
              className="secondary"
              aria-label={`Show the files of ${row.name}`}
              onPress={() => setSelected(row.id)}
            >
              Files
            </Button>
            {row.source.kind !== 'upload' ? (
              <RowButton label={`Look for new files of ${row.name} now`} mutation={run} id={row.id}>
                Run
              </RowButton>
            ) : null}
          </div>
        )}
      />
      {open ? (
        <FileHistory key={open.id} id={open.id} name={open.name} uploads={open.source.kind === 'upload'} />
      ) : null}
    </WithCreateForm>
  );
}
