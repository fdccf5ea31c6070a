#!/bin/sh
# Builds native programs with cargo, release and locked to the committed Cargo.lock, and
# prints where each binary is, one line per build named:
#   sse41   native/, at most SSE4.1 (as wide as WebAssembly SIMD)  target/sse41/release/blake3-native
#   best    native/, the crate's own choice of instructions        target/release/blake3-native
#   b3sum   the real b3sum that b3sum/Cargo.lock pins               b3sum/target/release/b3sum
# The bench (src/node/native-run.ts), the file page's b3sum (src/node/b3sum.ts) and the
# test set-up (scripts/setup-and-test.sh, while npm ci installs: this needs no
# node_modules) all build with it.
# CARGO names cargo when it is not on PATH. Usage: native/build.sh sse41 best b3sum
set -eu
cd "$(dirname "$0")"
cargo=${CARGO:-cargo}
for build in "$@"; do
  case "$build" in
    sse41)
      "$cargo" build --release --locked --quiet --features sse41 --target-dir "$PWD/target/sse41"
      echo "$PWD/target/sse41/release/blake3-native" ;;
    best)
      "$cargo" build --release --locked --quiet --target-dir "$PWD/target"
      echo "$PWD/target/release/blake3-native" ;;
    b3sum)
      # b3sum has no library: -p builds the dependency's own binary, from this lock.
      (cd b3sum && "$cargo" build --release --locked --quiet -p b3sum)
      echo "$PWD/b3sum/target/release/b3sum" ;;
    *)
      echo "native/build.sh: no build named '$build' (sse41, best, b3sum)" >&2
      exit 2 ;;
  esac
done
