//go:build !unix

package stagetest

// cpuTime is not measured here: the benchmarks report wall time only.
func cpuTime() (int64, bool) { return 0, false }
