// The class server: the built app as static files, plus the class API (routes.ts) and its
// live events, every answer with the app's own security headers (the same object Vite's
// dev and preview servers send, imported from vite.config.ts, not copied).
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { securityHeaders } from '../vite.config.ts';
import { EventHub } from './events.ts';
import { KEEP_AFTER_END_MS, rateLimits, SMALL_BODY_BYTES } from './limits.ts';
import { classRoutes } from './routes.ts';
import { openStore } from './store.ts';

export interface ServerOptions {
  /** Folder of the built app (vite build's output). */
  distDir: string;
  /** Folder of the SQLite file; created when missing. */
  dataDir: string;
  sessionMinutes: number;
  /** The address students open, shown on the join screen (known once the server listens). */
  joinOrigin: () => string;
}

/** How often ended classes past their keeping time are deleted. */
const PURGE_EVERY_MS = 3600_000;

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
    // Per connection, not per address: no IP is kept anywhere, not even in memory.
    const socket = request.raw.socket;
    if (!counted.has(socket)) {
      counted.add(socket);
      socket.once('close', () => limits.connection.forget(socket));
    }
    const wait = limits.connection.take(socket);
    if (wait) return reply.code(429).header('Retry-After', String(wait)).send({ error: `Too many requests; try again in ${wait} s` });
  });

  // JSON bodies arrive as text: results go to the same parser and validator as an imported
  // file (parseResultsJson), and the small bodies are parsed where they are read.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) console.error(error);
    reply.code(status).send({ error: status === 500 ? 'The class server failed to answer; try again' : error.message });
  });

  classRoutes(app, { store, hub, limits, sessionMs: options.sessionMinutes * 60_000, joinOrigin: options.joinOrigin, now: Date.now });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return reply.code(404).send({ error: 'There is no such address in the class API' });
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });

  if (existsSync(options.distDir)) await app.register(fastifyStatic, { root: options.distDir, index: 'index.html' });
  return app;
}
