import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import {
  CreateMaskingPolicyBody,
  MaskingPolicy,
  MaskingPreview,
  MaskingPreviewBody,
  UpdateMaskingPolicyBody,
} from './schemas.js';
import type { MaskingPolicyInput, MaskingPolicyPatch, MaskingService } from './service.js';

export const maskingRoutes = serviceRoutes<MaskingService>(['governance'], (route, service) => {
  route.post(
    '/masking-policies/evaluate',
    'policy:read',
    {
      operationId: 'evaluateMaskingPolicies',
      summary:
        "Sample rows as the caller would see them under the project's masking policies, with the policy that masks each column (policy:read)",
      body: MaskingPreviewBody,
      response: { 200: MaskingPreview },
    },
    (request, principal) => service.evaluate(principal, request.body),
  );
  resourceRoutes(
    route,
    {
      ...service,
      create: (principal, input, context) => service.create(principal, input as MaskingPolicyInput, context),
      update: (principal, id, input, context) => service.update(principal, id, input as MaskingPolicyPatch, context),
    },
    {
      path: '/masking-policies',
      noun: 'MaskingPolicy',
      capabilities: { read: 'policy:read', write: 'policy:write' },
      schemas: { item: MaskingPolicy, create: CreateMaskingPolicyBody, update: UpdateMaskingPolicyBody },
      summaries: {
        list: 'Masking policies of the projects where the caller holds policy:read',
        create:
          'Create a masking policy: a method, the columns it covers by name or catalog tag, and who is exempt (policy:write)',
        get: 'One masking policy (policy:read)',
        update: 'Change a masking policy (policy:write)',
        remove: 'Delete a masking policy (policy:write)',
      },
    },
  );
});
