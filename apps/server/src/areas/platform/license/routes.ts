import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import type { LicenseService } from './service.js';

const License = Type.Object({
  state: Type.Union([Type.Literal('unlicensed'), Type.Literal('licensed'), Type.Literal('expired')]),
  customer: Type.Union([Type.String(), Type.Null()]),
  seats: Type.Union([Type.Integer(), Type.Null()]),
  features: Type.Array(Type.String()),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const PutLicenseBody = Type.Object({ license: Type.String({ minLength: 1, maxLength: 20_000 }) }, { additionalProperties: false });

export const licenseRoutes: FastifyPluginAsyncTypebox<{ service: LicenseService }> = async (app, { service }) => {
  const tags = ['platform'];
  app.get('/license', {
    config: { capability: 'authenticated' },
    schema: { operationId: 'getLicense', tags, summary: 'State of the instance license', response: { 200: License } },
    handler: async () => service.describe(),
  });
  app.put('/license', {
    config: { licenseExempt: true, capability: 'license:write' },
    schema: { operationId: 'putLicense', tags, summary: 'Install a license (administrators; allowed in read-only mode)', body: PutLicenseBody, response: { 200: License } },
    handler: async (request) => service.install(principalOf(request), request.body.license, requestContext(request)),
  });
};
