// The stored V8 evidence of every stage (data/v8/, written by npm run gen), for the app.
import { STAGES } from '../../../steps/index.ts';
import type { V8Evidence } from '../../core/evidence/v8-evidence.ts';

const EVIDENCE = import.meta.glob<V8Evidence>('/data/v8/*.ts', { import: 'default', eager: true });

/** What V8 reported about the stage at `index`. */
export function v8Evidence(index: number): V8Evidence {
  const id = STAGES[index].id;
  const evidence = EVIDENCE[`/data/v8/${id}.ts`];
  if (!evidence) throw new Error(`data/v8/${id}.ts is missing: run npm run gen`);
  return evidence;
}
