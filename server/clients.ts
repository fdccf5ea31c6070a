// Who a request comes from, as far as the few per-address limits need to know (codes that
// match no class): its network address, kept only in memory and only as a keyed hash (the
// key is random and dies with the process), so no address is ever stored or logged.
// Behind a reverse proxy every request comes from the proxy; with `--trust-proxy ADDR`
// the address is read from X-Forwarded-For, but only on requests that come from ADDR
// (anyone else could write that header). Most limits do not use addresses at all: a
// school's whole class may share one (limits.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

const key = randomBytes(32);
const cache = new Map<string, string>();

/** "::ffff:10.0.0.5" is 10.0.0.5: one device, however the socket names it. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** Checks a `--trust-proxy` list: IP addresses, comma-separated. */
export function parseTrustedProxies(list: string): string[] {
  const addresses = list.split(',').map((part) => part.trim()).filter(Boolean);
  const bad = addresses.find((address) => isIP(address) === 0);
  if (bad !== undefined || addresses.length === 0) {
    throw new Error(`--trust-proxy ${list}: give the proxy's IP addresses, comma-separated (such as 127.0.0.1 or 127.0.0.1,::1)`);
  }
  return addresses.map(plainAddress);
}

export class Clients {
  readonly #trusted: Set<string>;

  constructor(trustedProxies: string[] = []) {
    this.#trusted = new Set(trustedProxies.map(plainAddress));
  }

  /** Whether the request came through a proxy this server trusts: its connection then carries many devices. */
  viaProxy(request: FastifyRequest): boolean {
    return this.#trusted.has(plainAddress(request.raw.socket.remoteAddress ?? ''));
  }

  /**
   * The device's address: the connection's, or through a trusted proxy the nearest address
   * in X-Forwarded-For that is not itself a trusted proxy (each proxy appends the address it
   * was reached from, so the right end is the part this server's proxies wrote).
   */
  address(request: FastifyRequest): string {
    let address = plainAddress(request.raw.socket.remoteAddress ?? 'unknown');
    if (!this.#trusted.has(address)) return address;
    const header = request.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      if (isIP(hops[i]) === 0) break; // a proxy would not write this: stop at the last address it did
      address = plainAddress(hops[i]);
      if (!this.#trusted.has(address)) break;
    }
    return address;
  }

  /** A short stable name for the device's address, different on every server start. */
  of(request: FastifyRequest): string {
    const address = this.address(request);
    let client = cache.get(address);
    if (client === undefined) {
      client = createHmac('sha256', key).update(address).digest('base64url').slice(0, 16);
      if (cache.size > 10_000) cache.clear();
      cache.set(address, client);
    }
    return client;
  }
}
