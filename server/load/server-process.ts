// A class server for the load test: `npm run classroom`'s own entry in a child process on
// 127.0.0.1 (a port the system picks), its data in a temporary folder deleted afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESULTS_FORMAT, type Results } from '../../src/core/bench/results.ts';
import type { ClassPlan } from '../../src/core/class/plan.ts';
import { DEFAULT_SAMPLE_TARGET_MS, DEFAULT_TIME_BOX_MS } from '../../src/core/bench/plan.ts';

export interface LoadServer {
  url: string;
  /** The host's key, as the teacher's link printed it (again after a restart). */
  readonly hostKey: string;
  readonly process: ChildProcess;
  /** Resident memory of the server process, MiB (Linux: /proc). */
  rssMiB(): number;
  /** Open file descriptors of the server process (Linux: /proc). */
  openFiles(): number;
  /** kill -9: no shutdown, no last write. */
  kill(): Promise<void>;
  /** Starts the server again on the same data and the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A running `npm run classroom` entry, as the teacher's link printed it. */
export interface SpawnedServer {
  /** The address students open. */
  url: string;
  /** Where the server itself listens: `url`, unless --public-url put a proxy's address there. */
  listening: string;
  /** The host's key from the teacher's link: what starting a class takes. */
  hostKey: string;
  process: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
}

/**
 * Starts the class server's own entry (server/main.ts, through tsx) on 127.0.0.1 with a
 * port the system picks, and waits for the address and the host's key it prints.
 */
export interface SpawnOptions {
  data: string;
  dist: string;
  classMinutes?: number;
  /** More of `npm run classroom`'s options: --cert, --key, --trust-proxy, --public-url, --port. */
  args?: string[];
}

export async function spawnClassServer(options: SpawnOptions): Promise<SpawnedServer> {
  const args = ['--import', 'tsx', 'server/main.ts', '--host', '127.0.0.1', '--port', '0', '--data', options.data, '--dist', options.dist];
  if (options.classMinutes !== undefined) args.push('--class-minutes', String(options.classMinutes));
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let output = '';
  const [url, hostKey, listening] = await new Promise<[string, string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the class server did not start in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const students = /Students open: (https?:\/\/[^/\s]+)\/#\/class/.exec(output);
      const teacher = /Teacher's link .*: https?:\/\/[^/\s]+\/\?host=([\w-]+)#\/class/.exec(output);
      const behind = /This server listens at (https?:\/\/[^\s]+) /.exec(output);
      if (students && teacher) {
        clearTimeout(timer);
        resolve([students[1], teacher[1], behind?.[1] ?? students[1]]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the class server exited with ${code}:\n${output}`));
    });
  });
  return { url, listening, hostKey, process: child, exited };
}

export async function startServer(): Promise<LoadServer> {
  const root = mkdtempSync(join(tmpdir(), 'blake3-lab-load-'));
  const dist = join(root, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>BLAKE3 Lab</title>\n');
  const data = join(root, 'data');
  let spawned = await spawnClassServer({ data, dist });
  const port = new URL(spawned.url).port;
  const running = () => spawned.process.exitCode === null && spawned.process.signalCode === null;
  return {
    url: spawned.url,
    get hostKey() {
      return spawned.hostKey;
    },
    get process() {
      return spawned.process;
    },
    rssMiB: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${spawned.process.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    openFiles: () => readdirSync(`/proc/${spawned.process.pid}/fd`).length,
    async kill() {
      if (running()) spawned.process.kill('SIGKILL');
      await spawned.exited;
    },
    async restart() {
      // The same port: pages and streams come back to the address they knew.
      spawned = await spawnClassServer({ data, dist, args: ['--port', port] });
    },
    async stop() {
      if (running()) spawned.process.kill('SIGTERM');
      await spawned.exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A results document as a student's page posts it for `plan`: every contestant and size, `samples` of `plan.rounds` samples each. */
export function planResults(seed: number, plan: ClassPlan, samples = plan.rounds): Results {
  const runs = plan.contestants.flatMap((id, i) =>
    plan.sizes.map((size) => {
      const ns = (size * 1e3) / ((40 * 1.6 ** i) / (1 + (seed % 7) / 10));
      return { contestant: id, size, status: 'ok' as const, iterations: 100, nsPerOp: Array.from({ length: samples }, (_, k) => ns * (1 + k / 100)) };
    }),
  );
  return {
    format: RESULTS_FORMAT,
    version: 1,
    env: {
      runtime: 'browser',
      runtimeVersion: 'Chromium 156.0.8078.73',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      os: 'Linux x86_64',
      cores: 4,
      timerResolutionNs: 5000,
      crossOriginIsolated: true,
      littleEndian: true,
      wasmSimd: true,
      webCrypto: true,
      date: '2026-11-21T10:00:00.000Z',
    },
    config: { sizes: plan.sizes, rounds: plan.rounds, sampleTargetMs: DEFAULT_SAMPLE_TARGET_MS, timeBoxMs: DEFAULT_TIME_BOX_MS },
    contestants: plan.contestants.map((id) => ({ id, title: id, kind: /^\d/.test(id) ? 'stage' : 'baseline', version: 'load' })),
    runs,
  };
}
