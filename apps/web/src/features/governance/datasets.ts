import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** A dataset's name with its namespace (schema), as `namespace.name`. */
export const qualified = (dataset: { namespace: string | null; name: string }) =>
  dataset.namespace ? `${dataset.namespace}.${dataset.name}` : dataset.name;

/** The datasets the catalog holds for one connector (none asked while no connector is chosen). */
export const useConnectorDatasets = (connectorId: string | undefined) =>
  useQuery({
    queryKey: ['catalog', connectorId],
    enabled: !!connectorId,
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: { connector_id: connectorId! } } })),
  });
