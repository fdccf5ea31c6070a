// The class server: the built app as static files, plus the class API (routes.ts) and its
// live events, every answer with the app's own security headers (the same object Vite's
// dev and preview servers send, from src/core/site/security-headers.ts). Plain HTTP, or HTTPS
// with a certificate (--cert, --key): then students' pages are secure contexts and get
// threads and the fine timer. Node's time-outs and the connection guard keep slow clients
// from holding the server (limits.ts, connections.ts).
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { SANDBOX_PATH, sandboxHeaders } from '../src/core/site/sandbox-headers.ts';
import { securityHeaders } from '../src/core/site/security-headers.ts';
import { BoardCache } from './board-cache.ts';
import { ClassService } from './class-service.ts';
import { Clients } from './clients.ts';
import { ConnectionGuard } from './connections.ts';
import { EventHub } from './events.ts';
import { guards, sameOriginWrites } from './guards.ts';
import type { HostKey } from './host.ts';
import { JoinDesk } from './joins.ts';
import { CONNECTION_CAPS, KEEP_AFTER_END_MS, type RateLimits, rateLimits, SMALL_BODY_BYTES, TIMEOUTS } from './limits.ts';
import { Refused } from './refusal.ts';
import { RefusalTally } from './refusals.ts';
import { classRoutes } from './routes.ts';
import { openStore, type Store } from './store.ts';

export interface ServerOptions {
  /** Folder of the built app (vite build's output). */
  distDir: string;
  /** Folder of the SQLite file; created when missing. */
  dataDir: string;
  /** The host's key: who may start classes (host.ts). */
  host: HostKey;
  classMinutes: number;
  /** The address students open, shown on the join screen (known once the server listens). */
  joinOrigin: () => string;
  /** Proxies whose X-Forwarded-For is believed (clients.ts). */
  trustProxy?: string[];
  /** A certificate and its key (PEM): the server speaks HTTPS. */
  tls?: { cert: Buffer; key: Buffer };
}

/** How often ended classes past their keeping time are deleted. */
const PURGE_EVERY_MS = 3600_000;

/** Fastify's own refusals, in the class API's words. */
const FASTIFY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The class API takes JSON bodies only (Content-Type: application/json)',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is larger than the class server takes',
};

export interface ClassServer {
  app: FastifyInstance;
  connections: ConnectionGuard;
  hub: EventHub;
}

export async function createServer(options: ServerOptions): Promise<ClassServer> {
  const store = openStore(options.dataDir);
  const hub = new EventHub();
  const limits = rateLimits();
  const clients = new Clients(options.trustProxy);
  const now = Date.now;
  const board = new BoardCache(store, now);
  const refusals = new RefusalTally(now);
  const app = newFastify(options.tls);
  const connections = new ConnectionGuard(CONNECTION_CAPS);
  connections.attach(app.server as Server);

  const purger = startPurging(store);
  const service = new ClassService({ store, hub, limits, board, refusals, classMs: options.classMinutes * 60_000, now });
  const joins = new JoinDesk({ store, hub, limits, board, refusals, classMs: options.classMinutes * 60_000, now });
  app.addHook('onClose', async () => {
    clearInterval(purger);
    board.close();
    joins.close();
    hub.closeAll();
    store.shutdown();
  });

  headAndThrottle(app, await sandboxPageHeaders(options.distDir), clients, limits);
  takeJsonOnly(app);
  answerRefusals(app);
  classRoutes(app, { service, joins, store, guards: guards({ store, limits, clients, host: options.host, now }), hub, joinOrigin: options.joinOrigin });
  answerNotFound(app);
  if (existsSync(options.distDir)) await serveBuild(app, options.distDir);
  return { app, connections, hub };
}

/** Fastify with Node's own time-outs: a head within 5 s, a whole request within 15 s, checked every second. */
function newFastify(tls: ServerOptions['tls']): FastifyInstance {
  const timeouts = { headersTimeout: TIMEOUTS.headersMs, connectionsCheckingInterval: TIMEOUTS.checkEveryMs };
  return Fastify({
    logger: false,
    bodyLimit: SMALL_BODY_BYTES,
    forceCloseConnections: true,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    requestTimeout: TIMEOUTS.requestMs,
    ...(tls ? { https: { ...tls, ...timeouts, handshakeTimeout: TIMEOUTS.handshakeMs } } : { http: timeouts }),
  }) as unknown as FastifyInstance;
}

/** Deletes the ended classes past their keeping time now and every PURGE_EVERY_MS; the timer does not hold the process. */
function startPurging(store: Store): NodeJS.Timeout {
  const purge = () => {
    store.purge(Date.now() - KEEP_AFTER_END_MS);
  };
  purge();
  const purger = setInterval(purge, PURGE_EVERY_MS);
  purger.unref();
  return purger;
}

/**
 * The playground's sandbox page has a policy of its own, as from Vite's servers: under
 * the app's, its one inline script could not run and the playground could check nothing.
 */
async function sandboxPageHeaders(distDir: string): Promise<Record<string, string>> {
  const sandboxPage = join(distDir, SANDBOX_PATH);
  return existsSync(sandboxPage) ? await sandboxHeaders(readFileSync(sandboxPage, 'utf8')) : securityHeaders;
}

/** Every answer gets its security headers; a class API request is not cached, is rate-limited per connection and, when it writes, must come from the same origin. */
function headAndThrottle(app: FastifyInstance, sandbox: Record<string, string>, clients: Clients, limits: RateLimits): void {
  const counted = new WeakSet<object>();
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(request.url.split('?')[0] === SANDBOX_PATH ? sandbox : securityHeaders);
    if (!request.url.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    // Per connection: a flood on one connection slows that connection alone. A trusted
    // proxy's connections carry many devices' requests, so they are not counted.
    const socket = request.raw.socket;
    if (!clients.viaProxy(request)) {
      if (!counted.has(socket)) {
        counted.add(socket);
        socket.once('close', () => limits.connection.forget(socket));
      }
      const wait = limits.connection.take(socket);
      if (wait) throw new Refused(429, `Too many requests; try again in ${wait} s`, wait);
    }
    await sameOriginWrites(request);
  });
}

/**
 * JSON bodies arrive as text: results go to the same parser and validator as an imported
 * file (parseResultsJson), and the small bodies are parsed where they are read. No other
 * type is taken: text/plain and form bodies are what another site's page can send
 * without asking, so they are refused (415) before any route sees them.
 */
function takeJsonOnly(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/** A refusal as its status and words; Fastify's own 4xx in the class API's words; anything else a logged 500. */
function answerRefusals(app: FastifyInstance): void {
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, request, reply) => {
    // Refused before its body was read (a missing token, a wrong code): the connection is
    // closed after the answer rather than left to receive the body, however slowly it comes.
    if (!request.raw.complete) reply.header('Connection', 'close');
    if (error instanceof Refused) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return reply.code(error.status).send(error.reason ? { error: error.message, reason: error.reason } : { error: error.message });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error(error);
    const message = status === 500 ? 'The class server failed to answer; try again' : (FASTIFY_ERRORS[error.code ?? ''] ?? error.message);
    return reply.code(status).send({ error: message });
  });
}

function answerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return reply.code(404).send({ error: 'There is no such address in the class API' });
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}

/**
 * The build as Vite's preview serves it, the web app manifest (application/manifest+json)
 * and the service worker (sw.js) included, so a student's page installs and precaches
 * here too. Files under assets/ carry their content's hash in their name and never
 * change; everything else (the pages, sw.js, the manifest) is asked again each time, so
 * a new build is found at once.
 */
async function serveBuild(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    index: 'index.html',
    cacheControl: false,
    setHeaders: (response, file) => {
      const hashed = relative(distDir, file).split(sep)[0] === 'assets';
      response.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
