// Connections the class server holds, and who gives way when there are too many. Node's
// own time-outs (app.ts) close a connection that sends its head or body slowly within
// seconds; this keeps slow clients from filling the server in those seconds. A connection
// is "waiting" while it has not sent a whole request (nothing yet, a head or body on its
// way, or idle between requests) and "busy" from then until its answer is sent (an event
// stream stays busy). Waiting connections are the ones slow clients hold; when there are
// too many, or no room for a new connection, the oldest waiting one of the address that
// holds the most gives way. A class behind one address has few waiting connections at
// once (a browser sends its request as soon as it connects), so a slow-client attack from
// the same address loses its own connections first, and an evicted idle connection costs
// a browser nothing (it opens another). Busy connections are never evicted: event streams
// have their own caps (events.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionCaps {
  /** Every connection at once: kept under the process's file descriptors. */
  total: number;
  /** Waiting connections at once. */
  waiting: number;
}

interface Connection {
  socket: Socket;
  address: string;
  waiting: boolean;
}

/** A socket's name while it is open: for TLS, the encrypted socket has the same address and port as the raw one. */
const keyOf = (socket: Socket) => `${socket.remoteAddress}|${socket.remotePort}`;

export class ConnectionGuard {
  readonly #open = new Map<string, Connection>();
  /** Waiting connections by address, oldest first. */
  readonly #waiting = new Map<string, Set<Connection>>();
  #waitingCount = 0;
  /** Waiting connections closed to make room, and new ones refused (every connection busy), since the start. */
  evicted = 0;
  refused = 0;

  constructor(private readonly caps: ConnectionCaps) {}

  attach(server: Server): void {
    // 'connection' comes with the raw socket, before a TLS handshake: a slow handshake waits too.
    server.on('connection', (socket: Socket) => this.#connected(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.#request(request, response));
  }

  get counts(): { open: number; waiting: number } {
    return { open: this.#open.size, waiting: this.#waitingCount };
  }

  #connected(socket: Socket): void {
    const key = keyOf(socket);
    if (this.#open.size >= this.caps.total && !this.#evictOne()) {
      this.refused++;
      socket.destroy();
      return;
    }
    const connection: Connection = { socket, address: socket.remoteAddress ?? '', waiting: false };
    this.#open.set(key, connection);
    this.#setWaiting(connection, true);
    socket.once('close', () => {
      this.#setWaiting(connection, false);
      if (this.#open.get(key) === connection) this.#open.delete(key);
    });
    while (this.#waitingCount > this.caps.waiting && this.#evictOne());
  }

  #request(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.#open.get(keyOf(request.socket));
    if (!connection) return;
    const length = request.headers['content-length'];
    const hasBody = request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    // A body still coming is as slow as a head still coming: the connection stays waiting until it has arrived.
    if (hasBody) request.once('end', () => this.#setWaiting(connection, false));
    else this.#setWaiting(connection, false);
    response.once('finish', () => {
      if (!connection.socket.destroyed) this.#setWaiting(connection, true);
    });
  }

  #setWaiting(connection: Connection, waiting: boolean): void {
    if (connection.waiting === waiting) return;
    connection.waiting = waiting;
    let set = this.#waiting.get(connection.address);
    if (waiting) {
      if (!set) this.#waiting.set(connection.address, (set = new Set()));
      set.add(connection);
      this.#waitingCount++;
    } else if (set?.delete(connection)) {
      this.#waitingCount--;
      if (set.size === 0) this.#waiting.delete(connection.address);
    }
  }

  /** Closes the oldest waiting connection of the address holding the most; false when none waits. */
  #evictOne(): boolean {
    let largest: Set<Connection> | undefined;
    for (const set of this.#waiting.values()) if (!largest || set.size > largest.size) largest = set;
    const oldest = largest?.values().next().value;
    if (!oldest) return false;
    this.#setWaiting(oldest, false);
    this.#open.delete(keyOf(oldest.socket));
    oldest.socket.destroy();
    this.evicted++;
    return true;
  }
}
