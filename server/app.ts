// The class server: the built app as static files, plus the class API (routes.ts) and its
// live events, every answer with the app's own security headers (the same object Vite's
// dev and preview servers send, from src/lib/security-headers.ts).
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { securityHeaders } from '../src/lib/security-headers.ts';
import { ClassService } from './class-service.ts';
import { EventHub } from './events.ts';
import { guards, sameOriginWrites } from './guards.ts';
import type { HostKey } from './host.ts';
import { KEEP_AFTER_END_MS, rateLimits, SMALL_BODY_BYTES } from './limits.ts';
import { Refused } from './refusal.ts';
import { classRoutes } from './routes.ts';
import { openStore } from './store.ts';

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
}

/** How often ended classes past their keeping time are deleted. */
const PURGE_EVERY_MS = 3600_000;

/** Fastify's own refusals, in the class API's words. */
const FASTIFY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The class API takes JSON bodies only (Content-Type: application/json)',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is larger than the class server takes',
};

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const store = openStore(options.dataDir);
  const hub = new EventHub();
  const limits = rateLimits();
  const app = Fastify({ logger: false, bodyLimit: SMALL_BODY_BYTES, forceCloseConnections: true });

  const purge = () => store.purge(Date.now() - KEEP_AFTER_END_MS);
  purge();
  const purger = setInterval(purge, PURGE_EVERY_MS);
  purger.unref();
  app.addHook('onClose', async () => {
    clearInterval(purger);
    hub.closeAll();
    store.shutdown();
  });

  const counted = new WeakSet<object>();
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(securityHeaders);
    if (!request.url.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    // Per connection: a flood on one connection slows that connection alone.
    const socket = request.raw.socket;
    if (!counted.has(socket)) {
      counted.add(socket);
      socket.once('close', () => limits.connection.forget(socket));
    }
    const wait = limits.connection.take(socket);
    if (wait) throw new Refused(429, `Too many requests; try again in ${wait} s`, wait);
    await sameOriginWrites(request);
  });

  // JSON bodies arrive as text: results go to the same parser and validator as an imported
  // file (parseResultsJson), and the small bodies are parsed where they are read. No other
  // type is taken: text/plain and form bodies are what another site's page can send
  // without asking, so they are refused (415) before any route sees them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    if (error instanceof Refused) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return reply.code(error.status).send({ error: error.message });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error(error);
    const message = status === 500 ? 'The class server failed to answer; try again' : (FASTIFY_ERRORS[error.code ?? ''] ?? error.message);
    return reply.code(status).send({ error: message });
  });

  const now = Date.now;
  const service = new ClassService({ store, hub, limits, classMs: options.classMinutes * 60_000, now });
  classRoutes(app, { service, guards: guards({ store, limits, host: options.host, now }), hub, joinOrigin: options.joinOrigin });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return reply.code(404).send({ error: 'There is no such address in the class API' });
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });

  if (existsSync(options.distDir)) await app.register(fastifyStatic, { root: options.distDir, index: 'index.html' });
  return app;
}
