// The projector, in a process of its own: it follows one class's stream and notes when
// each entry arrived (Date.now(), the clock every process here shares), and does nothing
// else, so a busy load generator never delays the clock that times the server. Started by
// watchProjector(); it prints "ready" once the stream is open, and the arrivals as JSON
// when its input closes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Target } from './addresses.ts';
import { Device } from './client.ts';

/** When an entry (by machine id and the time the server gave it) reached the projector. */
export interface Arrival {
  id: string;
  updatedAt: number;
  at: number;
}

export interface WatchedProjector {
  /** Stops following; resolves with every entry's arrival. */
  stop(): Promise<Arrival[]>;
}

/** Starts the projector's process on `stream` (a class's event stream) and resolves once the stream is open. */
export async function watchProjector(stream: Target): Promise<WatchedProjector> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/load/projector.ts', JSON.stringify(stream)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const received: string[] = [];
  let ready: () => void = () => {};
  const opened = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.on('exit', (code) => reject(new Error(`the projector's process exited with ${code}`)));
  });
  lines.on('line', (line) => (line === 'ready' ? ready() : received.push(line)));
  await opened;
  return {
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve(JSON.parse(received.join('')) as Arrival[]));
        child.stdin.end();
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stream = await new Device().stream(JSON.parse(process.argv[2]) as Target);
  if (stream.status !== 200) throw new Error(`the projector's stream was refused (${stream.status})`);
  process.stdout.write('ready\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    stream.close();
    const arrivals = stream.events.filter((e) => e.event === 'entry').map((e) => ({ id: e.data.id, updatedAt: e.data.updatedAt, at: e.wall }));
    process.stdout.write(JSON.stringify(arrivals) + '\n');
    process.exit(0);
  });
}
