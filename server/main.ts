// `npm run classroom`: builds the app if its sources changed since the last build, then
// serves it with the class API on the local network and prints the address to open,
// with a QR code for phones, and the teacher's link: the same address with the host's
// key, which alone lets a browser start classes (host.ts).
//
//   --host H              address to listen on (default 0.0.0.0: every network interface)
//   --port N              port (default 8080; 0 picks a free one)
//   --data DIR            where the class database lives (default ./classroom-data)
//   --dist DIR            serve this build as it is instead of building (default: build ./dist)
//   --class-minutes M     how long a new class stays open for results (default 180;
//                         --session-minutes, its old name, still works)
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import QRCode from 'qrcode';
import { createServer } from './app.ts';
import { buildIfNeeded } from './build.ts';
import { HOST_KEY_PARAM } from '../src/class/protocol.ts';
import { loadHostKey } from './host.ts';
import { DEFAULT_CLASS_MINUTES } from './limits.ts';

interface Options {
  host: string;
  port: number;
  data: string;
  dist: string | null;
  classMinutes: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = { host: '0.0.0.0', port: 8080, data: 'classroom-data', dist: null, classMinutes: DEFAULT_CLASS_MINUTES };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--host') options.host = value;
    else if (flag === '--data') options.data = value;
    else if (flag === '--dist') options.dist = value;
    else if (flag === '--port') {
      options.port = Number(value);
      if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new Error(`--port ${value} is not a port number (0 to 65535)`);
    } else if (flag === '--class-minutes' || flag === '--session-minutes') {
      options.classMinutes = Number(value);
      if (!(options.classMinutes > 0)) throw new Error(`${flag} ${value} is not a positive number of minutes`);
    } else throw new Error(`unknown option ${flag}; the options are --host, --port, --data, --dist and --class-minutes`);
  }
  return options;
}

/** The address other machines on the network reach this one at: the first external IPv4 address. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const distDir = options.dist !== null ? resolve(options.dist) : await buildIfNeeded(resolve('.'));
  const everywhere = options.host === '0.0.0.0' || options.host === '::';
  // The join URL carries the real port, known only once listening: the server reads it from here.
  const origin = { value: '' };
  const host = loadHostKey(resolve(options.data));
  const app = await createServer({
    distDir,
    dataDir: resolve(options.data),
    host,
    classMinutes: options.classMinutes,
    joinOrigin: () => origin.value,
  });
  await app.listen({ host: options.host, port: options.port });
  const port = (app.server.address() as { port: number }).port;
  const name = everywhere ? (lanAddress() ?? 'localhost') : options.host.includes(':') ? `[${options.host}]` : options.host;
  origin.value = `http://${name}:${port}`;
  const joinUrl = `${origin.value}/#/class`;
  const teacherUrl = `${origin.value}/?${HOST_KEY_PARAM}=${host.key}#/class`;
  const qr = await QRCode.toString(joinUrl, { type: 'terminal', small: true });
  process.stdout.write(
    `BLAKE3 Lab class server, keeping its data in ${resolve(options.data)}\n\n` +
      `  Students open: ${joinUrl}\n` +
      (everywhere ? `  On this computer: http://localhost:${port}/#/class\n` : '') +
      `\n${qr}\n` +
      `  Teacher's link (keep it to yourself; it starts classes): ${teacherUrl}\n\n` +
      'Open the teacher\'s link, start a class, put its join screen on the projector. Ctrl+C stops the server.\n',
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`classroom: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
