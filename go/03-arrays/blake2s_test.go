package arrays

import (
	"hash"
	"testing"

	"blake2slab/internal/stagetest"
)

var stage = stagetest.Stage{
	New:    func() hash.Hash { return New() },
	Sum256: Sum256,
}

func TestStage(t *testing.T)           { stagetest.Run(t, stage) }
func BenchmarkHash8Bytes(b *testing.B) { stagetest.Bench(b, stage, 8) }
func BenchmarkHash1K(b *testing.B)     { stagetest.Bench(b, stage, 1024) }
func BenchmarkHash8K(b *testing.B)     { stagetest.Bench(b, stage, 8192) }
