// Node only, Linux only: the CPU time of this process's children, thread by thread, read
// from /proc. `npm run bench -- --file` uses it to say where the time of a hash went: the
// file workers' threads, the rest of the page's renderer, and the browser process, which
// reads the file and feeds it to the page. Elsewhere there is no /proc, and the figures are
// simply absent. CPU time counts only our processes' own work, whatever else the machine runs.

import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Seconds of CPU by "<process kind>:<thread name>", e.g. "renderer:DedicatedWorker". */
export type ThreadCpu = Map<string, number>;

/** Clock ticks per second of /proc's times: 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended meanwhile
  }
}

/** Fields after the command name of a /proc stat line, which may itself hold spaces. */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function parentOf(pid: string): string | undefined {
  const stat = read(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : statFields(stat)[1];
}

/** Every process below `root` (children, theirs, and so on). */
export function descendants(root: number): number[] {
  const children = new Map<string, string[]>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [String(root)];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(Number(child));
      queue.push(child);
    }
  }
  return found;
}

/** The CPU time of every thread of the processes below `root`, or undefined without /proc. */
export function threadCpu(root = process.pid): ThreadCpu | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const cpu: ThreadCpu = new Map();
  for (const pid of descendants(root)) {
    const command = read(`/proc/${pid}/cmdline`);
    if (command === undefined) continue;
    const kind = /--type=([\w-]+)/.exec(command)?.[1] ?? (command.includes('chrom') ? 'browser' : 'other');
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of threads) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (stat === undefined) continue;
      // Thread names end in a number when there are several of a kind: one key for all.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
      const fields = statFields(stat);
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      const key = `${kind}:${name}`;
      cpu.set(key, (cpu.get(key) ?? 0) + seconds);
    }
  }
  return cpu;
}

/** CPU seconds of this process's children that have ended and been waited for (a b3sum run). */
export function endedChildrenCpu(): number | undefined {
  const stat = read('/proc/self/stat');
  if (stat === undefined) return undefined;
  const fields = statFields(stat);
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** What went up between two readings (threads that started in between count from zero). */
export function cpuSince(before: ThreadCpu, after: ThreadCpu): ThreadCpu {
  const delta: ThreadCpu = new Map();
  for (const [key, seconds] of after) {
    const spent = seconds - (before.get(key) ?? 0);
    if (spent > 0) delta.set(key, spent);
  }
  return delta;
}
