/**
 * The lists several screens read, each under one query key with one fetcher, so a screen that
 * changes one (and invalidates the key) refreshes every screen that shows it.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

/** The signed-in user (GET /me): administrators see the forms only they may use. */
export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/v1/me')) });

export const useProjects = () =>
  useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/v1/admin/projects')) });

export const useConnectors = () =>
  useQuery({ queryKey: ['connectors'], queryFn: () => unwrap(api.GET('/api/v1/data-connectors')) });

export const useRoles = () => useQuery({ queryKey: ['roles'], queryFn: () => unwrap(api.GET('/api/v1/admin/roles')) });

/** Polled: pipelines made, changed or deleted elsewhere (another tab, a colleague, the API) show up. */
export const usePipelines = () =>
  useQuery({
    queryKey: ['pipelines'],
    queryFn: () => unwrap(api.GET('/api/v1/etl/pipelines')),
    refetchInterval: 10_000,
  });
