// Where a result set was measured, named in plain text for headings, share pages and one
// side of a comparison. Figures are written by ../../format.ts.
import type { RuntimeInfo, Environment } from '../../bench/results.ts';

/** One line naming where a result set was measured, for headings and share pages. Plain text. */
export function describeEnvironment(env: Environment): string {
  const parts = [env.runtimeVersion, env.os, `${env.cores} ${env.cores === 1 ? 'core' : 'cores'}`];
  const date = new Date(env.date);
  if (!Number.isNaN(date.getTime())) parts.push(date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC');
  return parts.filter((part) => part && part.trim()).join(' · ');
}

/** The user's label, or the browser(s) and OS when there is none: names one side of a comparison. */
export function shortName(env: Environment, runtimes: readonly RuntimeInfo[] = []): string {
  const label = env.label?.trim();
  if (label) return label;
  const runtime = runtimes.length > 1 ? runtimes.map((r) => r.name).join(' + ') : env.runtimeVersion;
  return `${runtime} on ${env.os}`;
}
