// The other core of `npm run bench:cores -- --browser` (see src/core/bench/cores.ts): started
// by cores.worker.ts, it hashes its own copy of the input whenever told to.
import { otherCore } from '../src/core/bench/cores.ts';

self.addEventListener(
  'message',
  (event: MessageEvent<{ size: number; control: Int32Array }>) => {
    otherCore(event.data.size, event.data.control, () => self.postMessage('ready'));
  },
  { once: true },
);
