/**
 * The AI uses where the work is done: pipeline steps suggested from a description in the pipeline
 * builder, a dataset described in the catalog. Each asks an enabled provider of the project (or of
 * the instance); the server checks the answer before it is shown, and nothing is applied or saved
 * without the user's action.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { DatasetDescription, useAiProviders } from './AiProviders';

/** The providers a project may use: its own and the instance-wide ones, enabled. */
function useUsableProviders(projectId: string | undefined) {
  const providers = useAiProviders();
  return (providers.data?.items ?? []).filter(
    (p) => p.enabled && (p.project_id === null || p.project_id === projectId),
  );
}

function ProviderChoice({
  providers,
  value,
  onChange,
}: {
  providers: Array<{ id: string; name: string }>;
  value: string | undefined;
  onChange: (id: string) => void;
}) {
  return <ItemSelect label="AI provider" items={providers} value={value} onChange={onChange} isRequired={false} />;
}

/**
 * Steps for a pipeline from a description. Inside the pipeline form: plain buttons, no form of its
 * own. `onUse` gets the steps as the server checked them.
 */
export function SuggestSteps({
  projectId,
  columns,
  onUse,
}: {
  projectId: string | undefined;
  columns?: Array<{ name: string; type: string }>;
  onUse: (steps: Array<Record<string, unknown>>) => void;
}) {
  const usable = useUsableProviders(projectId);
  const [provider, setProvider] = useState<string | undefined>();
  const [description, setDescription] = useState('');
  const chosen = provider ?? (usable.length === 1 ? usable[0]!.id : undefined);
  const suggest = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/ai-providers/{id}/suggest-steps', {
          params: { path: { id: chosen! } },
          body: { project_id: projectId!, description, ...(columns?.length ? { columns } : {}) },
        }),
      ),
  });
  if (!projectId || usable.length === 0) return null;
  return (
    <section aria-label="Suggest steps with AI" className="ai-assist">
      <ProviderChoice providers={usable} value={chosen} onChange={setProvider} />
      <TextInput
        label="Steps that should"
        value={description}
        onChange={setDescription}
        description="For example: keep paid orders and add the amount with tax. The answer is checked against the step schema."
      />
      <div className="row">
        <Button
          className="secondary"
          onPress={() => suggest.mutate()}
          isDisabled={suggest.isPending || !chosen || !description.trim()}
        >
          Suggest steps
        </Button>
      </div>
      <ErrorNotice error={suggest.error} />
      {suggest.data ? (
        <>
          <div className="table-wrap" tabIndex={0} aria-label="Suggested steps">
            <pre>{JSON.stringify(suggest.data.steps, null, 2)}</pre>
          </div>
          <div className="row">
            <Button
              onPress={() => {
                onUse(suggest.data.steps as Array<Record<string, unknown>>);
                suggest.reset();
              }}
            >
              Add these steps
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** A catalog dataset and its columns described by an AI provider; shown, not saved. */
export function DescribeDataset({ datasetId, projectId }: { datasetId: string; projectId: string }) {
  const usable = useUsableProviders(projectId);
  const [provider, setProvider] = useState<string | undefined>();
  const chosen = provider ?? (usable.length === 1 ? usable[0]!.id : undefined);
  const describe = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/ai-providers/{id}/describe-dataset', {
          params: { path: { id: chosen! } },
          body: { dataset_id: datasetId },
        }),
      ),
  });
  if (usable.length === 0) return null;
  return (
    <section aria-label="Describe with AI" className="ai-assist">
      <ProviderChoice providers={usable} value={chosen} onChange={setProvider} />
      <div className="row">
        <Button className="secondary" onPress={() => describe.mutate()} isDisabled={describe.isPending || !chosen}>
          Describe with AI
        </Button>
      </div>
      <ErrorNotice error={describe.error} />
      {describe.data ? (
        <div aria-label="Description by AI" role="group">
          <DatasetDescription description={describe.data} />
          <p className="muted">Written by the AI from the names and types of the columns; not saved.</p>
        </div>
      ) : null}
    </section>
  );
}
