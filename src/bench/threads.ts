// How many threads a contestant hashes on, said in words. Only stage 11 uses more than
// the one it is called on; the bench records this beside its figures and the self-test
// shows it, so a multi-core figure is never read as one core's, and a stage that fell
// back to one thread says why.

import type { ThreadUse } from '../../steps/index.ts';
import { formatSize } from './plan.ts';

export function describeThreadUse(use: ThreadUse): string {
  if (use.fallback) return `hashes on one thread: ${use.fallback}`;
  const workers = use.threads - 1;
  return (
    `hashes inputs of ${formatSize(use.minBytes)} or more on ${use.threads} threads at once ` +
    `(the calling thread and ${workers} pool worker${workers === 1 ? '' : 's'}), so it uses ${use.threads} cores`
  );
}
