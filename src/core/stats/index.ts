// Benchmark statistics that match golang.org/x/perf/cmd/benchstat on the same samples:
// medians with distribution-free confidence intervals, the Mann-Whitney U test, deltas
// and geomeans, plus Holm-Bonferroni adjusted p-values for families of comparisons.
// Pure functions over arrays, usable in the browser, workers and Node alike.

export { summarize, medianOrders, quantileSorted, type Summary, type OrderInterval } from './median.ts';
export { compareSamples, percentChange, minSamplesToDetect, type Comparison } from './ab-test.ts';
export { mannWhitney, type UTestResult } from './utest.ts';
export { geomean, holm } from './aggregate.ts';
export { formatFixed, formatSigned, formatPlusMinus, formatDelta, formatP, formatPValue } from './format.ts';
export { tidy, unitClass, commonScale, formatScaled, formatScaledValue, type Scaler, type UnitClass } from './benchunit.ts';
export { TextTable, superscript } from './text-layout.ts';
export { erfc, normalCdf, normalQuantile } from './normal.ts';
