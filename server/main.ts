// `npm run classroom`: builds the app if its sources changed since the last build, then
// serves it with the class API on the local network and prints the address to open,
// with a QR code for phones, and the teacher's link: the same address with the host's
// key, which alone lets a browser start classes (host.ts). The options are in options.ts.
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import QRCode from 'qrcode';
import { INSECURE_PAGE, listed, lostOnPage, secureOrigin } from '../src/core/class/secure-origin.ts';
import { contestantPhrase, DEFAULT_CLASS_PLAN, planNeeds } from '../src/core/class/plan.ts';
import { HOST_KEY_PARAM } from '../src/core/class/protocol.ts';
import { createServer } from './app.ts';
import { buildIfNeeded } from './build.ts';
import { loadHostKey } from './host.ts';
import { parseArgs } from './options.ts';

/** The address other machines on the network reach this one at: the first external IPv4 address. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}

/** What students at `origin` will lack, or nothing when their pages are secure. */
function insecureNote(origin: string): string {
  if (secureOrigin(origin)) return '';
  const lost = lostOnPage(planNeeds(DEFAULT_CLASS_PLAN), INSECURE_PAGE, contestantPhrase);
  return (
    `  Note: ${origin} is plain HTTP on a network address, which browsers do not treat as secure.\n` +
    `  On students' machines, ${listed(lost)}. To give them everything, serve HTTPS:\n` +
    '  --cert FILE --key FILE, or a proxy in front (README, "A class board").\n\n'
  );
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const distDir = options.dist !== null ? resolve(options.dist) : await buildIfNeeded(resolve('.'));
  const everywhere = options.host === '0.0.0.0' || options.host === '::';
  // The join URL carries the real port, known only once listening: the server reads it from here.
  const origin = { value: '' };
  const host = loadHostKey(resolve(options.data));
  const { app } = await createServer({
    distDir,
    dataDir: resolve(options.data),
    host,
    classMinutes: options.classMinutes,
    joinOrigin: () => origin.value,
    trustProxy: options.trustProxy,
    tls: options.tls ?? undefined,
  });
  await app.listen({ host: options.host, port: options.port });
  const port = (app.server.address() as { port: number }).port;
  const scheme = options.tls ? 'https' : 'http';
  const name = everywhere ? (lanAddress() ?? 'localhost') : options.host.includes(':') ? `[${options.host}]` : options.host;
  origin.value = options.publicUrl ?? `${scheme}://${name}:${port}`;
  const joinUrl = `${origin.value}/#/class`;
  // The teacher's browser keeps the key for the origin it opened: the students' one, where the class runs.
  const teacherUrl = `${origin.value}/?${HOST_KEY_PARAM}=${host.key}#/class`;
  const qr = await QRCode.toString(joinUrl, { type: 'terminal', small: true });
  process.stdout.write(
    `BLAKE3 Lab class server, keeping its data in ${resolve(options.data)}\n\n` +
      `  Students open: ${joinUrl}\n` +
      (everywhere && !options.publicUrl ? `  On this computer: ${scheme}://localhost:${port}/#/class\n` : '') +
      (options.publicUrl ? `  This server listens at ${scheme}://${name}:${port} (for the proxy in front of it)\n` : '') +
      `\n${qr}\n` +
      insecureNote(origin.value) +
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
