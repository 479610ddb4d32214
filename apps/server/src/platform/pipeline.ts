/**
 * The request pipeline: one onRequest hook that runs the platform's steps in their documented order
 * (request context -> security headers -> rate limit -> authentication and token scope -> license
 * gate), and one onResponse hook (metrics, access log). A step returns nothing when it is done, or a
 * promise when it has to wait; one hook with synchronous steps costs less per request than a chain
 * of async hooks. An event stream whose client goes first never finishes its response, so Fastify
 * never runs onResponse for it: the stream runs the same steps through responseEnded().
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteInfo } from './request-context.js';

export type Step = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

function run(
  steps: Step[],
  index: number,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
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

type ResponseStep = (request: FastifyRequest, reply: FastifyReply) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** The pipeline's onResponse steps, for responses Fastify's onResponse never sees (see responseEnded). */
    pipelineResponseSteps: ResponseStep[];
  }
}

function runResponseSteps(steps: ResponseStep[], request: FastifyRequest, reply: FastifyReply) {
  for (const step of steps) {
    try {
      step(request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'response step failed');
    }
  }
}

export function registerPipeline(app: FastifyInstance, onRequest: Step[], onResponse: ResponseStep[]) {
  app.decorateRequest('routeInfo', null as unknown as RouteInfo);
  app.decorateRequest('principal', null);
  app.decorate('pipelineResponseSteps', onResponse);
  app.addHook('onRequest', (request, reply, done) => run(onRequest, 0, request, reply, done));
  app.addHook('onResponse', (request, reply, done) => {
    runResponseSteps(onResponse, request, reply);
    done();
  });
}

/**
 * Runs the onResponse steps (metrics, access log) for a hijacked response that will never finish
 * (its client went first), which Fastify's onResponse therefore never sees. Call it once, and only then.
 */
export function responseEnded(request: FastifyRequest, reply: FastifyReply): void {
  runResponseSteps(request.server.pipelineResponseSteps, request, reply);
}
