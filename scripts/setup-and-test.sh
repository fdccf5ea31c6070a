#!/usr/bin/env bash
# Every test, on a fresh machine or this one: installs what is missing (Debian's browsers,
# Caddy and openssl, node_modules, the Rust builds), then runs `npm test` (unit tests in
# Node, browser tests in Debian's Chromium, Firefox and WPE WebKit). What is there already
# is left alone, so a second run goes straight to the tests. Arguments go to `npm test`,
# e.g. `scripts/setup-and-test.sh tests/format.test.ts`. CI (.ci/run) runs this too.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's browsers the browser tests drive: Chromium (V8), Firefox ESR (SpiderMonkey) and
# WPE WebKit (JavaScriptCore: its WebDriver and the cog browser it starts).
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# The browser tests drive Chromium's headless shell (the same Blink and V8, lighter); the command line, Chromium.
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
command -v WPEWebDriver >/dev/null 2>&1 || missing+=(wpewebkit-driver)
command -v cog >/dev/null 2>&1 || missing+=(cog)
# The class board's HTTPS tests: Caddy in front of the class server, and a certificate made with openssl.
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  echo "--- installing Debian's ${missing[*]} (the browser tests drive them)"
  # apt-get needs root: CI runs as root, a developer's machine through sudo.
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -q
  "${as_root[@]}" apt-get install -y -q "${missing[@]}"
fi

# The Go track's tests run when Go is on PATH; without it they are skipped, with a note.
if command -v go >/dev/null 2>&1; then
  echo "--- Go: $(go version)"
else
  echo "--- no Go toolchain: the Go track's tests are skipped (install Go 1.22+ to run them)"
fi

# The native program (npm run bench -- --native) is built and run briefly by a unit test,
# and the real b3sum (native/b3sum) is built for the file page's browser test, which
# compares the page's lines with b3sum's, when cargo is on PATH or in ~/.cargo/bin; both
# fetch their crates from crates.io on the first build. Without cargo those two tests are
# skipped, with a note.
cargo=""
if command -v cargo >/dev/null 2>&1; then cargo=cargo
elif [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then cargo="${CARGO_HOME:-$HOME/.cargo}/bin/cargo"; fi
if [ -n "$cargo" ]; then
  echo "--- Rust: $("$cargo" --version)"
else
  echo "--- no cargo: the native program's test and the file page's b3sum test are skipped (install Rust with rustup to run them)"
fi

# The three Rust builds need no node_modules, so they compile while npm ci installs, with
# native/build.sh, which the tests build with too (src/node/native-build.ts): the tests
# then find them built (a build already done takes a second). If one fails here, its test
# builds again and shows cargo's error.
rust_log=$(mktemp)
if [ -n "$cargo" ]; then
  CARGO="$cargo" sh native/build.sh sse41 best b3sum >"$rust_log" 2>&1 &
  rust_builds=$!
fi

# npm ci when node_modules is missing or older than package-lock.json (npm writes
# node_modules/.package-lock.json at the end of every install).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "--- npm ci"
  # better-sqlite3 compiles SQLite from source, one file on one core: on this machine its
  # build takes 64 s of the install at its own -O3 and 30 s at -O1. The tests need SQLite's
  # answers, not its top speed; the class load test's speed targets are held by
  # `npm run load:class`, on an install of its own.
  CFLAGS=-O1 CXXFLAGS=-O1 npm ci --no-audit --no-fund
else
  echo "--- node_modules matches package-lock.json: no npm ci"
fi

if [ -n "$cargo" ]; then
  if wait "$rust_builds"; then echo "--- Rust: native/ and b3sum built"
  else echo "--- Rust: a build failed here (the tests that need it will say why):"; tail -n 8 "$rust_log"; fi
fi
rm -f "$rust_log"

echo "--- npm run test:run $*"
npm run test:run -- "$@"
