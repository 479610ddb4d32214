import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams } from '../../../platform/schemas.js';
import {
  DatasetDescription,
  DescribeDatasetBody,
  DraftModel,
  DraftModelBody,
  Provider,
  ProviderBody,
  ProviderPatch,
  SuggestedSteps,
  SuggestStepsBody,
  TestResult,
  Usage,
} from './schemas.js';
import type { ProvidersService } from './service.js';

export const providerRoutes = serviceRoutes<ProvidersService>(['ai-providers'], (route, service) => {
  resourceRoutes(route, service, {
    path: '/ai-providers',
    noun: 'AiProvider',
    capabilities: { read: 'ai:read', write: 'ai:write' },
    schemas: { item: Provider, create: ProviderBody, update: ProviderPatch },
    summaries: {
      list: 'AI providers of the projects the caller may read (ai:read), and the instance-wide ones',
      create:
        'Create an AI provider for a project (ai:write) or, without project_id, for the whole instance (administrators); the API key is write-only',
      get: 'One AI provider, without its key (ai:read)',
      update: 'Change an AI provider; api_key replaces the stored key, null removes it (ai:write)',
      remove: 'Delete an AI provider and its usage record (ai:write)',
    },
  });
  route.post(
    '/ai-providers/:id/test',
    'ai:write',
    {
      operationId: 'testAiProvider',
      summary: 'Ask the provider a fixed, tiny question; counted and audited like any call (ai:write)',
      params: IdParams,
      response: { 200: TestResult },
    },
    (request, principal, context) => service.test(principal, request.params.id, context),
  );
  route.get(
    '/ai-providers/:id/usage',
    'ai:read',
    {
      operationId: 'getAiProviderUsage',
      summary: 'Requests in the last minute and tokens this month against the limits, and the latest calls (ai:read)',
      params: IdParams,
      response: { 200: Usage },
    },
    (request, principal) => service.usage(principal, request.params.id),
  );
  route.post(
    '/ai-providers/:id/draft-model',
    'ai:use',
    {
      operationId: 'draftModelWithAi',
      summary:
        "Draft a warehouse model's SQL from a question and the project's warehouse schema; checked, not saved (ai:use, model:read)",
      params: IdParams,
      body: DraftModelBody,
      response: { 200: DraftModel },
    },
    (request, principal, context) => service.draftModel(principal, request.params.id, request.body, context),
  );
  route.post(
    '/ai-providers/:id/suggest-steps',
    'ai:use',
    {
      operationId: 'suggestStepsWithAi',
      summary:
        'Suggest pipeline transform steps from a description; checked against the step schema, not saved (ai:use)',
      params: IdParams,
      body: SuggestStepsBody,
      response: { 200: SuggestedSteps },
    },
    (request, principal, context) => service.suggestSteps(principal, request.params.id, request.body, context),
  );
  route.post(
    '/ai-providers/:id/describe-dataset',
    'ai:use',
    {
      operationId: 'describeDatasetWithAi',
      summary: 'Describe a catalog dataset and its columns (names and types go into the prompt); not saved (ai:use)',
      params: IdParams,
      body: DescribeDatasetBody,
      response: { 200: DatasetDescription },
    },
    (request, principal, context) => service.describeDataset(principal, request.params.id, request.body, context),
  );
});
