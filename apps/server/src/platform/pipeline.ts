/**
 * The request pipeline: one onRequest hook that runs the platform's steps in their documented order
 * (request context -> security headers -> rate limit -> authentication and token scope -> license
 * gate), and one onResponse hook (metrics, access log). A step returns nothing when it is done, or a
 * promise when it has to wait; one hook with synchronous steps costs less per request than a chain
 * of async hooks.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteInfo } from './request-context.js';

export type Step = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

function run(steps: Step[], index: number, request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  for (let i = index; i < steps.length; i++) {
    let result: void | Promise<void>;
    try {
      result = steps[i]!(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (result instanceof Promise) {
      result.then(() => run(steps, i + 1, request, reply, done), done);
      return;
    }
  }
  done();
}

export function registerPipeline(app: FastifyInstance, onRequest: Step[], onResponse: Array<(request: FastifyRequest, reply: FastifyReply) => void>) {
  app.decorateRequest('routeInfo', null as unknown as RouteInfo);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', (request, reply, done) => run(onRequest, 0, request, reply, done));
  app.addHook('onResponse', (request, reply, done) => {
    for (const step of onResponse) {
      try {
        step(request, reply);
      } catch (error) {
        request.log.error({ err: error }, 'response step failed');
      }
    }
    done();
  });
}
