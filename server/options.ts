// `npm run classroom`'s options, checked once: every wrong value stops the start with a
// sentence saying what a right one looks like.
import { readFileSync } from 'node:fs';
import { usage, type UsageOption } from '../src/core/usage.ts';
import { parseTrustedProxies } from './clients.ts';
import { DEFAULT_CLASS_MINUTES } from './limits.ts';

export interface Options {
  host: string;
  port: number;
  data: string;
  dist: string | null;
  classMinutes: number;
  /** Proxies whose X-Forwarded-For is believed. */
  trustProxy: string[];
  /** Certificate and key, read: the server speaks HTTPS. */
  tls: { cert: Buffer; key: Buffer } | null;
  /** The address students open when it is not this server's own (a proxy's, a DNS name). */
  publicUrl: string | null;
}

const OPTIONS: UsageOption[] = [
  { flag: '--host', value: 'H', help: 'address to listen on (default 0.0.0.0: every network interface)' },
  { flag: '--port', value: 'N', help: 'port (default 8080; 0 picks a free one)' },
  { flag: '--data', value: 'DIR', help: 'where the class database lives (default ./classroom-data)' },
  { flag: '--dist', value: 'DIR', help: 'serve this build as it is instead of building (default: build ./dist)' },
  { flag: '--class-minutes', value: 'M', help: `how long a new class stays open for results (default ${DEFAULT_CLASS_MINUTES})` },
  { flag: '--cert', value: 'FILE', help: 'serve HTTPS with this certificate (a PEM file) and the key --key names' },
  { flag: '--key', value: 'FILE', help: 'the key of --cert (a PEM file)' },
  { flag: '--trust-proxy', value: 'ADDR[,ADDR]', help: 'read the device\'s address from X-Forwarded-For on requests from these proxies' },
  { flag: '--public-url', value: 'URL', help: 'the address students open, when a proxy or a name stands in front (https://class.example.org)' },
];

export const USAGE = usage(['npm run classroom -- [options]'], OPTIONS, 24);

function readPem(flag: string, file: string): Buffer {
  try {
    const pem = readFileSync(file);
    if (!pem.includes('-----BEGIN')) throw new Error('it is not a PEM file');
    return pem;
  } catch (error) {
    throw new Error(`${flag} ${file}: cannot be read as a PEM file (${error instanceof Error ? error.message : String(error)})`);
  }
}

function publicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--public-url ${value}: give a whole address, such as https://class.example.org`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`--public-url ${value}: the address must start with https:// or http://`);
  return url.origin;
}

export function parseArgs(args: string[]): Options {
  const options: Options = { host: '0.0.0.0', port: 8080, data: 'classroom-data', dist: null, classMinutes: DEFAULT_CLASS_MINUTES, trustProxy: [], tls: null, publicUrl: null };
  let cert: string | null = null;
  let key: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--host') options.host = value;
    else if (flag === '--data') options.data = value;
    else if (flag === '--dist') options.dist = value;
    else if (flag === '--cert') cert = value;
    else if (flag === '--key') key = value;
    else if (flag === '--trust-proxy') options.trustProxy = parseTrustedProxies(value);
    else if (flag === '--public-url') options.publicUrl = publicUrl(value);
    else if (flag === '--port') {
      options.port = Number(value);
      if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new Error(`--port ${value} is not a port number (0 to 65535)`);
    } else if (flag === '--class-minutes' || flag === '--session-minutes') {
      // --session-minutes is the option's old name, from before a class was called a class everywhere.
      options.classMinutes = Number(value);
      if (!(options.classMinutes > 0)) throw new Error(`${flag} ${value} is not a positive number of minutes`);
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  if ((cert === null) !== (key === null)) throw new Error('--cert and --key go together: the certificate and its private key');
  if (cert !== null && key !== null) options.tls = { cert: readPem('--cert', cert), key: readPem('--key', key) };
  return options;
}
