// The load test (server/load/) calls the class server only at addresses built from the
// class protocol (src/core/class/protocol.ts) by server/load/addresses.ts: no file of it
// types a path, a query flag or a method by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { address, addressesOf } from '../server/load/addresses.ts';

/** Lines of a source file that are code, not comments. */
const codeLines = (text: string) => text.split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));

/**
 * Part of an address or a method typed by hand: an /api/ path, a route's segment after a
 * string or an interpolation (`${base}/board`), a done or ticket query, a method given as
 * a string (`method: 'PUT'`), or a request line (`POST /api/…`).
 */
const HAND_TYPED =
  /\/api\b|[?&](done|ticket)=|\bmethod:\s*['"`]|['"`}]\/(students|board|events|results|hidden|joins|size|admit|code|plan|close|export\.(csv|zip))\b|['"`](GET|HEAD|POST|PUT|PATCH|DELETE) /;

describe('addresses of the load test', () => {
  it('recognises an address or a method typed by hand (the check itself works)', () => {
    const example = [
      'const url = `${klass.base}/students/${student.id}/results?done=1`;',
      "  await device.call(url, { method: 'PUT', raw });",
      '// the board at `${base}/board`',
      "  const answer = await device.call(klass.at('board'));",
    ].join('\n');
    expect(codeLines(example).filter((line) => HAND_TYPED.test(line))).toEqual([example.split('\n')[0], example.split('\n')[1]]);
    for (const typed of ["probe.call(`${url}/api/class`)", 'stream(`${base}/events?ticket=${t}`)', "call(`${base}/board`)", 'const head = `POST ${p} HTTP/1.1`', "call(base + '/joins')"]) {
      expect(HAND_TYPED.test(typed), typed).toBe(true);
    }
    for (const built of ["device.call(klass.at('results', { id, done: true }), { raw })", "stream(at('events', { ticket }))", '`${ROUTES.join.method} ${path(\'join\', { code })} HTTP/1.1`']) {
      expect(HAND_TYPED.test(built), built).toBe(false);
    }
  });

  it('are built from the class protocol in every file of server/load', () => {
    const dir = 'server/load';
    const files = readdirSync(dir).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    const typed = files.flatMap((name) =>
      codeLines(readFileSync(join(dir, name), 'utf8'))
        .filter((line) => HAND_TYPED.test(line))
        .map((line) => `${name}: ${line.trim()}`),
    );
    expect(typed).toEqual([]);
  });

  it('are the addresses and methods the server takes', () => {
    const server = 'http://127.0.0.1:8080';
    const at = addressesOf(server, 'ABC234');
    expect(address(server, 'start')).toEqual({ url: `${server}/api/classes`, method: 'POST' });
    expect(at('probe')).toEqual({ url: `${server}/api/class`, method: 'GET' });
    expect(at('info')).toEqual({ url: `${server}/api/classes/ABC234`, method: 'GET' });
    expect(at('join')).toEqual({ url: `${server}/api/classes/ABC234/students`, method: 'POST' });
    expect(at('results', { id: 'a_b-c', done: true })).toEqual({ url: `${server}/api/classes/ABC234/students/a_b-c/results?done=1`, method: 'PUT' });
    expect(at('results', { id: 'a_b-c', done: false }).url).toBe(`${server}/api/classes/ABC234/students/a_b-c/results?done=0`);
    expect(at('remove', { id: 'a_b-c' })).toEqual({ url: `${server}/api/classes/ABC234/students/a_b-c`, method: 'DELETE' });
    expect(at('removeSilent')).toEqual({ url: `${server}/api/classes/ABC234/students`, method: 'DELETE' });
    expect(at('events')).toEqual({ url: `${server}/api/classes/ABC234/events`, method: 'GET' });
    expect(at('events', { ticket: 'x+y/z=' }).url).toBe(`${server}/api/classes/ABC234/events?ticket=x%2By%2Fz%3D`);
    expect(at('events', { ticket: undefined }).url).toBe(`${server}/api/classes/ABC234/events`);
  });
});
