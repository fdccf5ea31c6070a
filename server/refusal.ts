// A refusal: what the class server answers when it will not do what it was asked. Thrown
// by the class service and the guards; app.ts's error handler turns it into the status
// and { error: "<one sentence>" } (and Retry-After for a 429; the reason of a refused join).
import type { RefusalReason } from '../src/core/class/protocol.ts';

export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: number,
    readonly reason?: RefusalReason,
  ) {
    super(message);
  }
}

/** A 429 for a rate limit that said "wait `seconds`". */
export function tooMany(seconds: number, what: string): Refused {
  return new Refused(429, `Too many ${what}; try again in ${seconds} s`, seconds);
}

/** A small JSON body: fastify hands every JSON body over as text (see app.ts). */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === '') return {};
  if (typeof body !== 'string') throw new Refused(415, 'The class API takes JSON bodies only (Content-Type: application/json)');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new Refused(400, `The request body is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refused(400, 'The request body must be a JSON object');
  return value as Record<string, unknown>;
}
