import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { CreatePolicyBody, Policy, Preview, Sweep, SweepsQuery, TargetKind, UpdatePolicyBody } from './schemas.js';
import type { PolicyInput, RetentionService } from './service.js';

export const retentionRoutes = serviceRoutes<RetentionService>(['governance'], (route, service) => {
  route.get(
    '/retention-policies/target-kinds',
    'authenticated',
    {
      operationId: 'listRetentionTargetKinds',
      summary: 'What a retention policy can prune on this instance (target kinds, their scope)',
      response: { 200: Items(TargetKind) },
    },
    async () => ({ items: service.targetKinds() }),
  );
  resourceRoutes(
    route,
    {
      ...service,
      create: (principal, input, context) => service.create(principal, input as PolicyInput, context),
      update: (principal, id, input, context) => service.update(principal, id, input as Partial<PolicyInput>, context),
    },
    {
      path: '/retention-policies',
      noun: 'RetentionPolicy',
      capabilities: { read: 'policy:read', write: 'policy:write' },
      schemas: { item: Policy, create: CreatePolicyBody, update: UpdatePolicyBody },
      summaries: {
        list: 'Retention policies of the projects where the caller holds policy:read (administrators also see instance-wide ones)',
        create:
          'Create a retention policy: a target, max_age, optional max_rows and keep_last_failed, an optional cron or interval schedule (policy:write; instance-wide targets: administrators)',
        get: 'One retention policy (policy:read)',
        update: 'Change a retention policy (policy:write)',
        remove: 'Delete a retention policy and its sweep history (policy:write)',
      },
    },
  );
  route.post(
    '/retention-policies/:id/preview',
    'policy:read',
    {
      operationId: 'previewRetentionPolicy',
      summary: 'Dry run: what a sweep started now would delete, per table, and its cutoff (policy:read)',
      params: IdParams,
      response: { 200: Preview },
    },
    (request, principal) => service.preview(principal, request.params.id),
  );
  route.post(
    '/retention-policies/:id/run',
    'policy:write',
    {
      operationId: 'runRetentionPolicy',
      summary: "Start a sweep now: a project's runs as an execution (retention_sweep) (policy:write)",
      params: IdParams,
      response: { 201: Sweep },
    },
    (request, principal, context) => service.run(principal, request.params.id, context),
  );
  route.get(
    '/retention-policies/:id/sweeps',
    'policy:read',
    {
      operationId: 'listRetentionSweeps',
      summary: 'The sweeps of a policy, newest first, with their counts per table (policy:read)',
      params: IdParams,
      querystring: SweepsQuery,
      response: { 200: Items(Sweep) },
    },
    async (request, principal) => ({ items: await service.sweeps(principal, request.params.id, request.query.limit) }),
  );
});
