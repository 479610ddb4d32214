import { serviceRoutes } from '../../../platform/routes.js';
import { License, PutLicenseBody } from './schemas.js';
import type { LicenseService } from './service.js';

export const licenseRoutes = serviceRoutes<LicenseService>(['platform'], (route, service) => {
  route.get(
    '/license',
    'authenticated',
    { operationId: 'getLicense', summary: 'State of the instance license', response: { 200: License } },
    async () => service.describe(),
  );
  route.put(
    '/license',
    { capability: 'license:write', licenseExempt: true },
    {
      operationId: 'putLicense',
      summary: 'Install a license (administrators; allowed in read-only mode)',
      body: PutLicenseBody,
      response: { 200: License },
    },
    (request, principal, context) => service.install(principal, request.body.license, context),
  );
});
