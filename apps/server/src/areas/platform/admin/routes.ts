import { itemRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams, NoContent } from '../../../platform/schemas.js';
import {
  CreateEnvironmentBody,
  CreateProjectBody,
  CreateRoleBody,
  Environment,
  EnvironmentList,
  Member,
  MemberList,
  MemberParams,
  Project,
  ProjectList,
  PutMemberBody,
  Role,
  RoleList,
  UpdateProjectBody,
  UpdateRoleBody,
} from './schemas.js';
import type { AdminService } from './service.js';

export const adminRoutes = serviceRoutes<AdminService>(['platform'], (route, service) => {
  // Projects: every signed-in user lists those they can see; creating and deleting one is the administrators'.
  route.get(
    '/admin/projects',
    'project:read',
    {
      operationId: 'listProjects',
      summary: 'Projects you can see (administrators: all)',
      response: { 200: ProjectList },
    },
    async (_request, principal) => ({
      items: await service.listProjects(principal),
    }),
  );
  route.post(
    '/admin/projects',
    'project:create',
    {
      operationId: 'createProject',
      summary: 'Create a project (administrators)',
      body: CreateProjectBody,
      response: { 201: Project },
    },
    (request, principal, context) => service.createProject(principal, request.body, context),
  );
  itemRoutes(
    route,
    { get: service.getProject, update: service.updateProject, remove: service.deleteProject },
    {
      path: '/admin/projects',
      noun: 'Project',
      capabilities: { read: 'project:read', write: 'project:write', remove: 'project:delete' },
      schemas: { item: Project, update: UpdateProjectBody },
      summaries: {
        get: 'One project (project:read)',
        update: 'Rename or describe a project (project:write)',
        remove: 'Delete a project and everything in it (administrators)',
      },
    },
  );
  route.get(
    '/admin/projects/:id/environments',
    'project:read',
    {
      operationId: 'listEnvironments',
      summary: 'Environments of a project (project:read)',
      params: IdParams,
      response: { 200: EnvironmentList },
    },
    async (request, principal) => ({ items: await service.listEnvironments(principal, request.params.id) }),
  );
  route.post(
    '/admin/projects/:id/environments',
    'project:write',
    {
      operationId: 'createEnvironment',
      summary: 'Add an environment to a project (project:write)',
      params: IdParams,
      body: CreateEnvironmentBody,
      response: { 201: Environment },
    },
    (request, principal, context) =>
      service.createEnvironment(principal, request.params.id, request.body.name, context),
  );
  route.get(
    '/admin/projects/:id/members',
    'member:read',
    {
      operationId: 'listMembers',
      summary: 'Members of a project (member:read)',
      params: IdParams,
      response: { 200: MemberList },
    },
    async (request, principal) => ({
      items: await service.listMembers(principal, request.params.id),
    }),
  );
  route.put(
    '/admin/projects/:id/members/:user_id',
    'member:write',
    {
      operationId: 'putMember',
      summary: 'Add a member or change its role and environments (member:write)',
      params: MemberParams,
      body: PutMemberBody,
      response: { 200: Member },
    },
    (request, principal, context) =>
      service.putMember(principal, request.params.id, request.params.user_id, request.body, context),
  );
  route.delete(
    '/admin/projects/:id/members/:user_id',
    'member:write',
    {
      operationId: 'removeMember',
      summary: 'Remove a member from a project (member:write)',
      params: MemberParams,
      response: NoContent,
    },
    (request, principal, context) =>
      service.removeMember(principal, request.params.id, request.params.user_id, context),
  );
  // Roles: every signed-in user may read them (to understand a membership); only administrators change them.
  route.get(
    '/admin/roles',
    'authenticated',
    { operationId: 'listRoles', summary: 'Built-in and custom roles', response: { 200: RoleList } },
    async () => ({ items: await service.listRoles() }),
  );
  route.post(
    '/admin/roles',
    'role:write',
    {
      operationId: 'createRole',
      summary: 'Create a custom role (administrators)',
      body: CreateRoleBody,
      response: { 201: Role },
    },
    (request, principal, context) => service.createRole(principal, request.body, context),
  );
  itemRoutes(
    route,
    { get: (_principal, id) => service.getRole(id), update: service.updateRole, remove: service.deleteRole },
    {
      path: '/admin/roles',
      noun: 'Role',
      capabilities: { read: 'authenticated', write: 'role:write' },
      schemas: { item: Role, update: UpdateRoleBody },
      summaries: {
        get: 'One role',
        update: 'Change a custom role (administrators)',
        remove: 'Delete a custom role no member holds (administrators)',
      },
    },
  );
});
