// V8's evidence (data/v8/), measured again: exactly for what V8 decides (what TurboFan
// compiled, every deoptimization and its reason, bytecode sizes), within bands for what the
// machine's timing moves (heap per hash, collections, machine code). Run alone by
// `npm run test:evidence`, under the V8 that recorded it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../steps/index.ts';
import { evidencePath, generateV8Evidence, storedEvidence } from '../../scripts/v8-evidence.ts';

const recordedV8 = storedEvidence(readFileSync(new URL(`../../${evidencePath(STAGES[0].id)}`, import.meta.url), 'utf8'), evidencePath(STAGES[0].id)).v8;

describe('V8 evidence, measured again', () => {
  it('agrees with a fresh run of every stage (npm run gen rewrites it)', async ({ skip }) => {
    if (recordedV8 !== process.versions.v8) {
      skip(`the evidence was measured by V8 ${recordedV8} and this Node runs V8 ${process.versions.v8}: V8 versions optimize differently, so it is compared only with the same one`);
    }
    const started = performance.now();
    const problems: string[] = [];
    for (const file of await generateV8Evidence()) {
      if (file.changes.length > 0) problems.push(`${file.path} (run npm run gen):\n  ${file.changes.join('\n  ')}`);
    }
    console.log(`v8-evidence: every stage measured again in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    expect(problems).toEqual([]);
  }, 600_000);
});
