/**
 * How an area writes its API routes: one declaration each, with the capability it needs next to its
 * schema, and the call to its service. The status code is the success code the response schema names
 * (201 answers what the call returns, 204 answers nothing); the caller and the request context come
 * with the request. Routes that handle the reply themselves (cookies, redirects, event streams) use
 * Fastify's own methods and declare `config.capability` the same way.
 */
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import { principalOf, type Principal } from './authn.js';
import type { RouteCapability } from './authz.js';
import { requestContext, type RequestContext } from './request-context.js';
import { IdParams, Items, NoContent, ProjectQuery } from './schemas.js';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

type NoBody = { type: 'null' };
type SuccessResponse = { 200: TSchema } | { 201: TSchema } | { 204: NoBody };

export interface RouteSchema extends FastifySchema {
  operationId: string;
  summary: string;
  response: SuccessResponse;
}

/** The request of a route, typed from its schema (params, query string, body). */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** What the call answers: the body of the success response (nothing for 204). */
type Answer<R> = R extends { 200: infer T extends TSchema }
  ? Static<T>
  : R extends { 201: infer T extends TSchema }
    ? Static<T>
    : unknown;

type Call<S extends RouteSchema> = (
  request: RouteRequest<S>,
  principal: Principal,
  context: RequestContext,
) => Promise<Answer<S['response']>>;

/** The capability alone, or with other route settings (`licenseExempt`, ...). */
type RouteConfig = RouteCapability | (FastifyContextConfig & { capability: RouteCapability });

const successStatus = (response: SuccessResponse): 200 | 201 | 204 =>
  '201' in response ? 201 : '204' in response ? 204 : 200;

export function apiRoutes(app: Api, tags: string[]) {
  const add =
    (method: HTTPMethods) =>
    <S extends RouteSchema>(url: string, config: RouteConfig, schema: S, call: Call<S>): void => {
      const status = successStatus(schema.response);
      app.route({
        method,
        url,
        config: typeof config === 'string' ? { capability: config } : config,
        schema: { tags, ...schema } as FastifySchema,
        handler: async (request, reply) => {
          const answer = await call(
            request as unknown as RouteRequest<S>,
            principalOf(request),
            requestContext(request),
          );
          return reply.code(status).send(status === 204 ? null : answer);
        },
      });
    };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
}

type Routes = ReturnType<typeof apiRoutes>;

/** The routes plugin of a sub-area whose routes need only its service: `declare` adds them with `route`. */
export function serviceRoutes<Service>(
  tags: string[],
  declare: (route: Routes, service: Service) => void,
): FastifyPluginAsyncTypebox<{ service: Service }> {
  return async (app, { service }) => declare(apiRoutes(app, tags), service);
}

/** One resource of a kind, as its service reads, changes and deletes it. */
export interface ItemService<Item, Update> {
  get(principal: Principal, id: string): Promise<Item>;
  update(principal: Principal, id: string, input: Update, context: RequestContext): Promise<Item>;
  /** `query`: the delete's query string, when the kind has one (`removeQuery`). */
  remove(principal: Principal, id: string, context: RequestContext, query: Record<string, unknown>): Promise<void>;
}

/** A kind of project resource with the usual five operations, as its service offers them. */
export interface ResourceService<Item, Create, Update> extends ItemService<Item, Update> {
  list(principal: Principal, projectId?: string): Promise<Item[]>;
  create(principal: Principal, input: Create, context: RequestContext): Promise<Item>;
}

export interface ItemSpec<I extends TSchema, U extends TSchema> {
  /** The collection's path: `/data-connectors`; one resource is `<path>/:id`. */
  path: string;
  /** The operationIds' noun: `DataConnector` makes getDataConnector, updateDataConnector, deleteDataConnector (and listDataConnectors, createDataConnector). */
  noun: string;
  /** Reading needs `read`, changing `write`, deleting `remove` (default `write`). */
  capabilities: { read: RouteCapability; write: RouteCapability; remove?: RouteCapability };
  schemas: { item: I; update: U; removeQuery?: TObject };
  summaries: { get: string; update: string; remove: string };
}

export interface ResourceSpec<I extends TSchema, C extends TSchema, U extends TSchema> extends ItemSpec<I, U> {
  schemas: { item: I; create: C; update: U; removeQuery?: TObject };
  summaries: { list: string; create: string; get: string; update: string; remove: string };
}

/** The get, update and delete routes of one resource (`<path>/:id`). */
export function itemRoutes<I extends TSchema, U extends TSchema>(
  route: Routes,
  service: ItemService<Static<I>, Static<U>>,
  spec: ItemSpec<I, U>,
): void {
  const { path, noun, capabilities, schemas, summaries } = spec;
  const one = `${path}/:id`;
  route.get(
    one,
    capabilities.read,
    { operationId: `get${noun}`, summary: summaries.get, params: IdParams, response: { 200: schemas.item } },
    (request, principal) => service.get(principal, request.params.id) as never,
  );
  route.patch(
    one,
    capabilities.write,
    {
      operationId: `update${noun}`,
      summary: summaries.update,
      params: IdParams,
      body: schemas.update,
      response: { 200: schemas.item },
    },
    (request, principal, context) =>
      service.update(principal, request.params.id, request.body as Static<U>, context) as never,
  );
  const removal = {
    operationId: `delete${noun}`,
    summary: summaries.remove,
    params: IdParams,
    ...(schemas.removeQuery ? { querystring: schemas.removeQuery } : {}),
    response: NoContent,
  };
  route.delete(one, capabilities.remove ?? capabilities.write, removal, (request, principal, context) =>
    service.remove(principal, request.params.id, context, (request.query ?? {}) as Record<string, unknown>),
  );
}

/** The list (optionally of one project), create, get, update and delete routes of a kind of project resource. */
export function resourceRoutes<I extends TSchema, C extends TSchema, U extends TSchema>(
  route: Routes,
  service: ResourceService<Static<I>, Static<C>, Static<U>>,
  spec: ResourceSpec<I, C, U>,
): void {
  const { path, noun, capabilities, schemas, summaries } = spec;
  route.get(
    path,
    capabilities.read,
    {
      operationId: `list${noun}s`,
      summary: summaries.list,
      querystring: ProjectQuery,
      response: { 200: Items(schemas.item) },
    },
    async (request, principal) => ({
      items: (await service.list(principal, request.query.project_id)) as never,
    }),
  );
  route.post(
    path,
    capabilities.write,
    { operationId: `create${noun}`, summary: summaries.create, body: schemas.create, response: { 201: schemas.item } },
    (request, principal, context) => service.create(principal, request.body as Static<C>, context) as never,
  );
  itemRoutes(route, service, spec);
}
