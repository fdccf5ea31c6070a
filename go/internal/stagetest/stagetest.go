// Package stagetest holds the tests and benchmarks every stage of the Go track shares,
// so each stage's test file is a few lines that name the stage and what it claims.
// The reference is golang.org/x/crypto/blake2s, an implementation independent of ours.
package stagetest

import (
	"bytes"
	"encoding/hex"
	"hash"
	"testing"

	"golang.org/x/crypto/blake2s"
)

// Stage is one stage's public API, as the tests see it.
type Stage struct {
	New    func() hash.Hash
	Sum256 func([]byte) [32]byte
	// ZeroAllocs claims that hashing with a reused Digest (Reset, Write, Sum into a
	// slice with room) and Sum256 allocate nothing. The tests hold the stage to its
	// claim either way: a stage that allocates must not claim it, and one that
	// claims it must not allocate.
	ZeroAllocs bool
}

// rfcVectors are RFC 7693's example (appendix B, BLAKE2s-256 of "abc") and the hash
// of the empty input, which the reference confirms below as well.
var rfcVectors = []struct{ input, hex string }{
	{"abc", "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"},
	{"", "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9"},
}

// message returns n bytes of a fixed pattern: every byte of a block differs.
func message(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return b
}

func reference(data []byte) [32]byte { return blake2s.Sum256(data) }

// Run checks a stage against the RFC's vectors and the reference.
func Run(t *testing.T, s Stage) {
	t.Run("RFC 7693 vectors", func(t *testing.T) {
		for _, v := range rfcVectors {
			want, _ := hex.DecodeString(v.hex)
			if got := s.Sum256([]byte(v.input)); !bytes.Equal(got[:], want) {
				t.Errorf("Sum256(%q) = %x, want %s", v.input, got, v.hex)
			}
			if ref := reference([]byte(v.input)); !bytes.Equal(ref[:], want) {
				t.Errorf("the reference disagrees with the RFC on %q: %x", v.input, ref)
			}
		}
	})

	t.Run("every length from 0 to 1100", func(t *testing.T) {
		data := message(1100)
		for n := 0; n <= len(data); n++ {
			want := reference(data[:n])
			if got := s.Sum256(data[:n]); got != want {
				t.Fatalf("Sum256 of %d bytes = %x, want %x", n, got, want)
			}
			d := s.New()
			d.Write(data[:n])
			if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("New, Write, Sum of %d bytes = %x, want %x", n, got, want)
			}
		}
	})

	t.Run("large inputs", func(t *testing.T) {
		for _, n := range []int{64 << 10, 1<<20 - 1, 1 << 20, 1<<20 + 65} {
			data := message(n)
			if got, want := s.Sum256(data), reference(data); got != want {
				t.Errorf("Sum256 of %d bytes = %x, want %x", n, got, want)
			}
		}
	})

	t.Run("a write split at every boundary", func(t *testing.T) {
		data := message(3*64 + 5)
		want := reference(data)
		for cut := 0; cut <= len(data); cut++ {
			d := s.New()
			d.Write(data[:cut])
			d.Write(data[cut:])
			if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
				t.Fatalf("Write(%d bytes) then Write(%d bytes): %x, want %x", cut, len(data)-cut, got, want)
			}
		}
		d := s.New()
		for i := range data {
			d.Write(data[i : i+1])
		}
		if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("one byte at a time: %x, want %x", got, want)
		}
	})

	t.Run("Sum leaves the digest as it was, Reset starts over", func(t *testing.T) {
		data := message(200)
		d := s.New()
		d.Write(data[:100])
		first := d.Sum([]byte("prefix"))
		if want := reference(data[:100]); !bytes.Equal(first, append([]byte("prefix"), want[:]...)) {
			t.Fatalf("Sum(prefix) = %x, want the prefix then %x", first, want)
		}
		d.Write(data[100:])
		if got, want := d.Sum(nil), reference(data); !bytes.Equal(got, want[:]) {
			t.Fatalf("writing after Sum: %x, want %x", got, want)
		}
		d.Reset()
		d.Write(data[:7])
		if got, want := d.Sum(nil), reference(data[:7]); !bytes.Equal(got, want[:]) {
			t.Fatalf("after Reset: %x, want %x", got, want)
		}
		if d.Size() != 32 || d.BlockSize() != 64 {
			t.Fatalf("Size() = %d, BlockSize() = %d, want 32 and 64", d.Size(), d.BlockSize())
		}
	})

	t.Run("allocations", func(t *testing.T) {
		if testing.CoverMode() != "" || raceEnabled {
			t.Skip("coverage and the race detector add allocations of their own")
		}
		data := message(1024)
		d := s.New()
		sum := make([]byte, 0, 32)
		reused := testing.AllocsPerRun(100, func() {
			d.Reset()
			d.Write(data)
			sum = d.Sum(sum[:0])
		})
		oneShot := testing.AllocsPerRun(100, func() { s.Sum256(data) })
		t.Logf("allocations per hash: %v with a reused Digest, %v with Sum256", reused, oneShot)
		if s.ZeroAllocs && (reused != 0 || oneShot != 0) {
			t.Errorf("the stage claims zero allocations but makes %v with a reused Digest and %v with Sum256", reused, oneShot)
		}
		if !s.ZeroAllocs && reused == 0 && oneShot == 0 {
			t.Errorf("the stage allocates nothing: it should claim ZeroAllocs")
		}
	})
}

// Bench measures hashing size bytes with a Digest kept across iterations (Reset,
// Write, Sum into a reused slice), the way Go's own crypto benchmarks do.
//
// Besides wall time (ns/op) it reports the CPU time the process spent per hash
// (cpu-ns/op). On a machine shared with other busy processes, wall time also counts
// the moments the benchmark waited for a core; CPU time does not, so it separates two
// stages where wall time drowns the difference in the neighbours' load.
func Bench(b *testing.B, s Stage, size int) {
	data := message(size)
	d := s.New()
	sum := make([]byte, 0, 32)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	start, ok := cpuTime()
	for i := 0; i < b.N; i++ {
		d.Reset()
		d.Write(data)
		sum = d.Sum(sum[:0])
	}
	if end, ok2 := cpuTime(); ok && ok2 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
