// How much a results document from outside (a share link, an imported file) may hold.
// Every limit is far above what a real run produces, and far below what would freeze a
// tab: a full run of every contestant (about 15) over 8 sizes with 30 samples each is
// about 3,600 samples, 80 kB of JSON and 25 kB once compressed. A document past a limit
// is refused with a message that names the limit, never trimmed to fit.
import { MAX_PLAN_ROUNDS } from '../../bench/plan.ts';

/**
 * Characters of a share-link payload (after "#/share/"). Browsers accept URLs of about
 * 2 MB; 1 MiB of base64 carries ~750 kB compressed, some 30 times a real run.
 */
export const MAX_SHARE_PAYLOAD_CHARS = 1024 * 1024;

/** Contestants in one document: a dozen stages, 5 baselines and a few faults fit many times over. */
export const MAX_CONTESTANTS = 64;

/** Runtimes in one document: the command line measures up to three browsers in one go. */
export const MAX_RUNTIMES = 16;

/** Input sizes in config.sizes: the bench offers about 8. */
export const MAX_SIZES = 32;

/**
 * Runs (one per contestant, size and runtime). A full run is about 17 contestants x 10
 * sizes, 170 runs, and 510 in three browsers at once; 1024 leaves twice that.
 */
export const MAX_RUNS = 1024;

/** Samples in one run: the bench takes tens; a thousand would be a very long run. */
export const MAX_SAMPLES_PER_RUN = 1000;

/** Samples over all runs: bounds memory and the statistics work a document can cause. */
export const MAX_TOTAL_SAMPLES = 100_000;

/** Largest input size in bytes (1 TiB): `npm run bench -- --file` times whole files, read from disk piece by piece. */
export const MAX_INPUT_BYTES = 1024 ** 4;

/** Hashes per sample at most: the bench stops calibrating at 2^30, so twice that is nonsense. */
export const MAX_ITERATIONS = 2 ** 31;

/** Rounds in the run config: as many as a plan may ask for. */
export const MAX_ROUNDS = MAX_PLAN_ROUNDS;

/**
 * Fastest plausible sample, ns per hash. One hash is at least tens of instructions, so
 * even a 0-byte input cannot take less than a few ns; 0.001 ns (a thousandth of a clock
 * cycle) only rejects nonsense while leaving room for any real machine.
 */
export const MIN_NS_PER_OP = 0.001;

/**
 * Slowest plausible sample, ns per hash: 10^12 ns is about 17 minutes for one hash,
 * beyond the slowest stage on the largest input on any machine the lab runs on.
 */
export const MAX_NS_PER_OP = 1e12;

/** Coarsest plausible timer step: one second. Browsers round to 5-100 microseconds. */
export const MAX_TIMER_RESOLUTION_NS = 1e9;

/** Longest sample target and time box in the config (one hour): the document's own rule, in bench/results.ts. */
export { MAX_CONFIG_MS } from '../../bench/results.ts';

/** Logical cores: the largest machines today have a few hundred. */
export const MAX_CORES = 4096;

/** Lengths of text fields, in UTF-16 characters (what String.length counts). */
export const MAX_TEXT = {
  /** Contestant ids: "00-reference", "blake3-wasm", "fault-hangs". */
  id: 64,
  title: 120,
  /** A content hash or "package@version". */
  version: 120,
  /** How a contestant used its threads, or why only one: a sentence. */
  note: 400,
  /** User agents are about 150 characters; some embedded browsers send 400. */
  userAgent: 512,
  runtimeVersion: 120,
  /** A browser or JavaScript engine name: "Chromium", "SpiderMonkey". */
  engineName: 60,
  os: 120,
  /** An ISO 8601 date-time with milliseconds and offset is 29. */
  date: 40,
  /** The user's label for a run ("Ana's laptop") is shown in narrow legends. */
  label: 80,
  /** Why a run failed or stopped: a sentence or two, often quoting an error message. */
  reason: 1000,
} as const;

/** Threads one contestant may report: far above any machine a browser runs on. */
export const MAX_THREADS = 1024;

// The largest document the limits above let through, in bytes of JSON as our exports
// write it, and so the most a results file or an inflated link can need. Samples and
// runs make up nearly all of it:
// - a sample is a double, at most 24 characters in JSON ("-1.2345678901234567e-100"),
//   plus its comma and, in an exported file, a line break and 8 spaces of indentation;
// - a run is at most its reason (3 bytes of UTF-8 per UTF-16 character at worst; a tab or
//   a line break is written as 2) plus 400 bytes of field names, id, status and numbers;
// - the environment, the config, each runtime and each contestant are their text fields
//   at 3 bytes a character, plus 400 bytes of field names and numbers each.
const SAMPLE_JSON_BYTES = 24 + 1 + 9;
const FIELDS_JSON_BYTES = 400;
const UTF8_BYTES_PER_CHAR = 3;
const ENV_TEXT_CHARS = MAX_TEXT.runtimeVersion + MAX_TEXT.userAgent + MAX_TEXT.os + MAX_TEXT.date + MAX_TEXT.label;
const CONTESTANT_TEXT_CHARS = MAX_TEXT.id + MAX_TEXT.title + MAX_TEXT.version + MAX_TEXT.note;
const RUNTIME_TEXT_CHARS = MAX_TEXT.id + 2 * MAX_TEXT.engineName + MAX_TEXT.runtimeVersion + MAX_TEXT.userAgent;
const LARGEST_DOCUMENT_BYTES =
  MAX_TOTAL_SAMPLES * SAMPLE_JSON_BYTES +
  MAX_RUNS * (UTF8_BYTES_PER_CHAR * MAX_TEXT.reason + FIELDS_JSON_BYTES) +
  MAX_CONTESTANTS * (UTF8_BYTES_PER_CHAR * CONTESTANT_TEXT_CHARS + FIELDS_JSON_BYTES) +
  MAX_RUNTIMES * (UTF8_BYTES_PER_CHAR * RUNTIME_TEXT_CHARS + FIELDS_JSON_BYTES) +
  (UTF8_BYTES_PER_CHAR * ENV_TEXT_CHARS + FIELDS_JSON_BYTES) +
  (MAX_SIZES * SAMPLE_JSON_BYTES + FIELDS_JSON_BYTES);

const MIB = 1024 * 1024;

/**
 * Bytes of a results file read at most (checked before reading it), and bytes a share
 * link may expand to (the decompressor stops there: a "zip bomb" of a few kilobytes that
 * inflates to gigabytes is cut off at this point, not held in memory). The largest
 * document above (7.0 MB), rounded up to whole MiB so messages can name it: 7 MiB.
 * A real run is 80 kB of JSON, 250 kB in three browsers; samples and runs at their
 * limits are what would take the rest.
 */
export const MAX_RESULTS_BYTES = Math.ceil(LARGEST_DOCUMENT_BYTES / MIB) * MIB;

/** Characters of JSON text parsed at most (checked before JSON.parse). */
export const MAX_RESULTS_JSON_CHARS = MAX_RESULTS_BYTES;
