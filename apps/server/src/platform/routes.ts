/**
 * How an area writes its API routes: one declaration each, with the capability it needs next to its
 * schema, and the call to its service. The status code is the success code the response schema names
 * (201 answers what the call returns, 204 answers nothing); the caller and the request context come
 * with the request. Routes that handle the reply themselves (cookies, redirects, event streams) use
 * Fastify's own methods and declare `config.capability` the same way.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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
import type { Static, TSchema } from 'typebox';
import { principalOf, type Principal } from './authn.js';
import type { RouteCapability } from './authz.js';
import { requestContext, type RequestContext } from './request-context.js';

export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

type NoBody = { type: 'null' };
type SuccessResponse = { 200: TSchema } | { 201: TSchema } | { 204: NoBody };

export interface RouteSchema extends FastifySchema {
  operationId: string;
  summary: string;
  response: SuccessResponse;
}

/** The request of a route, typed from its schema (params, query string, body). */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<RouteGenericInterface, RawServerDefault, RawRequestDefaultExpression, S, TypeBoxTypeProvider>;

/** What the call answers: the body of the success response (nothing for 204). */
type Answer<R> = R extends { 200: infer T extends TSchema } ? Static<T> : R extends { 201: infer T extends TSchema } ? Static<T> : unknown;

type Call<S extends RouteSchema> = (request: RouteRequest<S>, principal: Principal, context: RequestContext) => Promise<Answer<S['response']>>;

/** The capability alone, or with other route settings (`licenseExempt`, ...). */
type RouteConfig = RouteCapability | (FastifyContextConfig & { capability: RouteCapability });

const successStatus = (response: SuccessResponse): 200 | 201 | 204 => ('201' in response ? 201 : '204' in response ? 204 : 200);

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
          const answer = await call(request as unknown as RouteRequest<S>, principalOf(request), requestContext(request));
          return reply.code(status).send(status === 204 ? null : answer);
        },
      });
    };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
}
