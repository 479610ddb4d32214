import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import {
  CreateEnvironmentBody,
  CreateProjectBody,
  CreateRoleBody,
  Environment,
  EnvironmentList,
  IdParams,
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

const NoContent = { 204: { type: 'null' } } as const;

export const adminRoutes: FastifyPluginAsyncTypebox<{ service: AdminService }> = async (app, { service }) => {
  const tags = ['platform'];
  app.get('/admin/projects', {
    config: { capability: 'project:read' },
    schema: { operationId: 'listProjects', tags, summary: 'Projects you can see (administrators: all)', response: { 200: ProjectList } },
    handler: async (request) => ({ items: await service.listProjects(principalOf(request)) }),
  });
  app.post('/admin/projects', {
    config: { capability: 'project:create' },
    schema: { operationId: 'createProject', tags, summary: 'Create a project (administrators)', body: CreateProjectBody, response: { 201: Project } },
    handler: async (request, reply) => reply.code(201).send(await service.createProject(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/admin/projects/:id', {
    config: { capability: 'project:read' },
    schema: { operationId: 'getProject', tags, summary: 'One project (project:read)', params: IdParams, response: { 200: Project } },
    handler: async (request) => service.getProject(principalOf(request), request.params.id),
  });
  app.patch('/admin/projects/:id', {
    config: { capability: 'project:write' },
    schema: { operationId: 'updateProject', tags, summary: 'Rename or describe a project (project:write)', params: IdParams, body: UpdateProjectBody, response: { 200: Project } },
    handler: async (request) => service.updateProject(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/admin/projects/:id', {
    config: { capability: 'project:delete' },
    schema: { operationId: 'deleteProject', tags, summary: 'Delete a project and everything in it (administrators)', params: IdParams, response: NoContent },
    handler: async (request, reply) => {
      await service.deleteProject(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  app.get('/admin/projects/:id/environments', {
    config: { capability: 'project:read' },
    schema: { operationId: 'listEnvironments', tags, summary: 'Environments of a project (project:read)', params: IdParams, response: { 200: EnvironmentList } },
    handler: async (request) => ({ items: await service.listEnvironments(principalOf(request), request.params.id) }),
  });
  app.post('/admin/projects/:id/environments', {
    config: { capability: 'project:write' },
    schema: { operationId: 'createEnvironment', tags, summary: 'Add an environment to a project (project:write)', params: IdParams, body: CreateEnvironmentBody, response: { 201: Environment } },
    handler: async (request, reply) => reply.code(201).send(await service.createEnvironment(principalOf(request), request.params.id, request.body.name, requestContext(request))),
  });
  app.get('/admin/projects/:id/members', {
    config: { capability: 'member:read' },
    schema: { operationId: 'listMembers', tags, summary: 'Members of a project (member:read)', params: IdParams, response: { 200: MemberList } },
    handler: async (request) => ({ items: await service.listMembers(principalOf(request), request.params.id) }),
  });
  app.put('/admin/projects/:id/members/:user_id', {
    config: { capability: 'member:write' },
    schema: { operationId: 'putMember', tags, summary: 'Add a member or change its role and environments (member:write)', params: MemberParams, body: PutMemberBody, response: { 200: Member } },
    handler: async (request) => service.putMember(principalOf(request), request.params.id, request.params.user_id, request.body, requestContext(request)),
  });
  app.delete('/admin/projects/:id/members/:user_id', {
    config: { capability: 'member:write' },
    schema: { operationId: 'removeMember', tags, summary: 'Remove a member from a project (member:write)', params: MemberParams, response: NoContent },
    handler: async (request, reply) => {
      await service.removeMember(principalOf(request), request.params.id, request.params.user_id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  app.get('/admin/roles', {
    config: { capability: 'authenticated' },
    schema: { operationId: 'listRoles', tags, summary: 'Built-in and custom roles', response: { 200: RoleList } },
    handler: async () => ({ items: await service.listRoles() }),
  });
  app.post('/admin/roles', {
    config: { capability: 'role:write' },
    schema: { operationId: 'createRole', tags, summary: 'Create a custom role (administrators)', body: CreateRoleBody, response: { 201: Role } },
    handler: async (request, reply) => reply.code(201).send(await service.createRole(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/admin/roles/:id', {
    config: { capability: 'authenticated' },
    schema: { operationId: 'getRole', tags, summary: 'One role', params: IdParams, response: { 200: Role } },
    handler: async (request) => service.getRole(request.params.id),
  });
  app.patch('/admin/roles/:id', {
    config: { capability: 'role:write' },
    schema: { operationId: 'updateRole', tags, summary: 'Change a custom role (administrators)', params: IdParams, body: UpdateRoleBody, response: { 200: Role } },
    handler: async (request) => service.updateRole(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/admin/roles/:id', {
    config: { capability: 'role:write' },
    schema: { operationId: 'deleteRole', tags, summary: 'Delete a custom role no member holds (administrators)', params: IdParams, response: NoContent },
    handler: async (request, reply) => {
      await service.deleteRole(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
};
