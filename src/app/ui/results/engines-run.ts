// The committed run of every stage in Chromium and Firefox (data/engines/), checked as any
// imported results file is: the "Every engine" page, the stories' figures and the file
// page's time estimates all read it here. A new run is a new file, named here only.

import measured from '../../../../data/engines/chromium-firefox-2026-11-27.json';
import { validateResults } from '../../../core/results/io/validate.ts';
import type { Results } from '../../../core/bench/results.ts';

/** The run in `data` (the committed one unless given), checked; throws with the reason when it fails the check. */
export function readEnginesRun(data: unknown = measured): Results {
  const check = validateResults(data);
  if (!check.ok) throw new Error(`data/engines: ${check.error}`);
  return check.results;
}
