// Deliberate misbehaviour of a pool worker, for the tests that prove a broken pool gives
// an error and never a wrong digest (tests/every-core.test.ts). Kept out of worker.ts,
// whose piece loop only asks, once a fault was injected, whether to go on.

/**
 * What a worker does on its next piece: 'exit' stops the worker, 'crash' throws an error
 * it does not catch (the browser or Node reports it to the pool, as it would a crash of
 * its code), 'hang' never finishes the piece, 'slow' pauses 300 ms before it (a thread
 * the machine took its core from).
 */
export type Fault = 'exit' | 'crash' | 'hang' | 'slow';

/** Runs before a piece; false means the worker takes no more pieces of this job. */
export type BeforePiece = (control: Int32Array) => boolean;

/** The hook a worker runs before its next piece once told to misbehave; `exit` ends the worker. */
export function misbehaviour(fault: Fault, failedAt: number, exit: () => void): BeforePiece {
  let pending = true;
  return (control) => {
    if (!pending) return true;
    if (fault === 'exit') {
      exit();
      return false;
    }
    if (fault === 'crash') {
      pending = false;
      throw new Error('deliberate crash of a pool worker, mid-hash');
    }
    // Waits on the FAILED word, so a pool that gives up still sees this worker stuck.
    if (fault === 'hang') for (;;) Atomics.wait(control, failedAt, 0, 1000);
    pending = false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    return true;
  };
}
