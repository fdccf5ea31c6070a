// Who a request comes from, as far as limits need to know: its network address, kept
// only in memory and only as a keyed hash (the key is random and dies with the process),
// so no address is ever stored or logged. On a class's local network each device has its
// own address; the per-client limits (limits.ts) are what stop one device filling a class.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const key = randomBytes(32);
const cache = new Map<string, string>();

/** A short stable name for the request's address, different on every server start. */
export function clientOf(request: FastifyRequest): string {
  const address = request.raw.socket.remoteAddress ?? 'unknown';
  let client = cache.get(address);
  if (client === undefined) {
    client = createHmac('sha256', key).update(address).digest('base64url').slice(0, 16);
    if (cache.size > 10_000) cache.clear();
    cache.set(address, client);
  }
  return client;
}
