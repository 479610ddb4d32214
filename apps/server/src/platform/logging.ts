/**
 * Structured JSON logs (pino). Every API line carries request_id (Fastify's child logger);
 * credentials are redacted wherever they appear in a logged object.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.access_token',
  '*.secret',
  '*.client_key',
  'password',
  'token',
  'secret',
  'config.password',
];

export interface Loggers {
  /** Everything but the access log; redacts credentials wherever they appear. */
  app: Logger;
  /**
   * One line per request with fixed fields (no body, no headers), so it skips the redaction pass,
   * the costliest part of a log call; the only credential its fields can carry, a credential in the
   * query (`token`, `access_token`, however encoded), is masked by accessLogUrl().
   */
  access: Logger;
}

export function createLoggers(level: string, destination?: DestinationStream): Loggers {
  const common = {
    level,
    base: { service: 'svc' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const target = destination ?? bufferedStdout();
  return {
    app: pino({ ...common, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, target),
    access: pino(common, target),
  };
}

/**
 * stdout, written in blocks of 4 KB or at least once a second instead of one system call per line
 * (a system call per request was the largest single cost of a small request). pino flushes what is
 * left on exit; a process killed with SIGKILL can lose up to a second of lines.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // not ready or already closed: nothing to flush
    }
  }, 1000).unref();
  return stream;
}

/**
 * Fastify makes a child logger (bound to the request_id) for every request, though most requests
 * never log through it (the access line has its own logger). This one makes the pino child only when
 * a method is first called. (A Proxy would not do: Fastify checks the methods exist, which touched them.)
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    readonly parent: FastifyBaseLogger,
    readonly childBindings: Bindings,
    readonly childOptions: ChildLoggerOptions,
  ) {}
  get #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.childBindings, this.childOptions));
  }
  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.#real.level = value;
  }
  fatal(...args: unknown[]) {
    (this.#real.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]) {
    (this.#real.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]) {
    (this.#real.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]) {
    (this.#real.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]) {
    (this.#real.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    (this.#real.trace as (...a: unknown[]) => void)(...args);
  }
  silent(...args: unknown[]) {
    (this.#real.silent as (...a: unknown[]) => void)(...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.#real.child(bindings, options);
  }
}

export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

/** Query parameters whose value is a credential, by decoded, lower-cased name. */
const CREDENTIAL_PARAMETERS = new Set(['token', 'access_token']);

/** A parameter name as Fastify's query parser decodes it ('+' is a space; an invalid escape leaves it as sent). */
function decodedName(name: string): string {
  const spaced = name.includes('+') ? name.replaceAll('+', ' ') : name;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Invalid as a whole: decode the ASCII escapes alone, so that no spelling of a name slips through.
    return spaced.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/**
 * The URL as the access log shows it: the value of every query parameter whose decoded name is a
 * credential (`token`, `access_token`, in any case and any encoding) is replaced by [redacted]. The
 * query is read as the router reads it (from the first `?` or `#`), so whatever can authenticate is masked.
 */
export function accessLogUrl(url: string): string {
  let start = url.indexOf('?', 1);
  const hash = url.indexOf('#', 1);
  if (hash !== -1 && (start === -1 || hash < start)) start = hash;
  if (start === -1) return url;
  const query = url.slice(start + 1);
  // Every spelling of these names has "oken" or a percent escape in it; most queries have neither.
  if (!/oken|%/i.test(query)) return url;
  const parameters = query.split('&').map((parameter) => {
    const equals = parameter.indexOf('=');
    const name = equals === -1 ? parameter : parameter.slice(0, equals);
    return CREDENTIAL_PARAMETERS.has(decodedName(name).toLowerCase()) ? `${name}=[redacted]` : parameter;
  });
  return `${url.slice(0, start + 1)}${parameters.join('&')}`;
}

/** The one line per request. */
export function accessLog(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  logger.info(
    {
      request_id: request.id,
      method: request.method,
      url: accessLogUrl(request.url),
      route: request.routeInfo?.url,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      client: request.ip,
      user_id: request.principal?.userId,
    },
    'request completed',
  );
}
