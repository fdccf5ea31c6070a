// How to run a Go stage yourself: the exact commands, built from the stage's package path
// (go/<id>, in the module go/go.mod names), never typed into the prose, so they cannot
// drift from the folders. tests/ask-the-class.test.ts runs `go test -list` on them.
import { GO_TRACK } from '../../../go/index.ts';

/** `go test` flags for a benchmark run: no tests, every benchmark, ten runs for benchstat. */
const BENCH_FLAGS = "-run '^$' -bench . -count 10";

export interface RunYourself {
  /** The folder to run in: the Go module's root. */
  dir: string;
  /** This step's benchmarks, into a file. */
  run: string;
  /** The step before's benchmarks and benchstat on the two, for every step after the first. */
  compare: string[];
}

export const goPackagePath = (index: number): string => `./${GO_TRACK[index].id}`;

export function runYourself(index: number): RunYourself {
  const here = GO_TRACK[index];
  const before = GO_TRACK[index - 1];
  const file = (id: string) => `${id}.txt`;
  return {
    dir: 'go',
    run: `go test ${BENCH_FLAGS} ${goPackagePath(index)} > ${file(here.id)}`,
    compare: before ? [`go test ${BENCH_FLAGS} ${goPackagePath(index - 1)} > ${file(before.id)}`, `benchstat ${file(before.id)} ${file(here.id)}`] : [],
  };
}
