// Every address the load test calls, and the method it calls it with, from the class
// protocol (src/core/class/protocol.ts): its routes' methods and paths, the done flag of
// a results post and the ticket of an event stream. No file in server/load types a path,
// a query or a method of its own (tests/load-addresses.test.ts checks).
import { doneQuery, path, ROUTES, TICKET_PARAM, type RouteName } from '../../src/core/class/protocol.ts';

/** One request's target: a full URL, and the method its route takes. */
export interface Target {
  readonly url: string;
  readonly method: string;
}

export interface RouteParams {
  /** The machine a route names (results, hidden, remove). */
  id?: string;
  /** A results post: finished (or stopped) run, or results so far. */
  done?: boolean;
  /** An event stream on a ticket (a machine's or the teacher's); none for a page that has not joined. */
  ticket?: string;
}

/** `route` on the server at `serverUrl` (http://host:port), for class `code` where it names one. */
export function address(serverUrl: string, route: RouteName, { code, id, done, ticket }: RouteParams & { code?: string } = {}): Target {
  const query = done !== undefined ? doneQuery(done) : ticket !== undefined ? `?${TICKET_PARAM}=${encodeURIComponent(ticket)}` : '';
  return { url: `${serverUrl}${path(route, { code, id })}${query}`, method: ROUTES[route].method };
}

/** Finds `route` of one class. */
export type At = (route: RouteName, params?: RouteParams) => Target;

/** Every route of class `code` on the server at `serverUrl`. */
export function addressesOf(serverUrl: string, code: string): At {
  return (route, params = {}) => address(serverUrl, route, { ...params, code });
}
