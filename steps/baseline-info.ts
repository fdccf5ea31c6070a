// What the lab says and shows about each contestant that is not ours, without loading
// it: the yardstick the article measured every stage against, the libraries a reader
// would otherwise pick, and the platform's native hash. The bench registry
// (baselines.ts) adds the loaders; the class server, the charts and the pickers read
// only this, so none of them loads a hash library to learn a name or a colour.
// tests/stages.test.ts holds each pinned version to the package installed.

export interface BaselineDisplay {
  /** Its short name where space is tight (a class board's columns): "WASM". */
  short: string;
  /** Its line on the charts: a colour apart from the stages near it, or the theme's text or muted colour. */
  color: `#${string}` | 'text' | 'muted';
  /** The dash of that line, so no series depends on colour alone. */
  dash: number[];
  /** Part of a run on the bench page unless the reader unticks it. */
  defaultOn: boolean;
  /** Offered to a teacher for a class plan. */
  offeredToClass: boolean;
}

export interface BaselineInfo {
  id: string;
  title: string;
  /** 'baseline': a yardstick the story measures against; 'peer': a library to beat. */
  kind: 'baseline' | 'peer';
  /** package@version as pinned in package.json, or the platform API used. */
  version: string;
  /** Which function the digest is: a SHA-256 digest must be checked against SHA-256. */
  digest: 'blake3' | 'sha256';
  description: string;
  display: BaselineDisplay;
}

const inNode = typeof globalThis.process?.versions?.node === 'string';

/** The yardstick every "x times WASM" figure is relative to: the official Rust BLAKE3 compiled to WebAssembly. */
export const BLAKE3_WASM = {
  id: 'blake3-wasm',
  title: 'Rust → WASM (blake3-wasm)',
  kind: 'baseline',
  version: 'blake3-wasm@2.1.5',
  digest: 'blake3',
  description:
    "The official Rust BLAKE3 compiled to WebAssembly (no SIMD): the article's yardstick, " +
    'every "x times WASM" figure is relative to it. Pinned: 3.0.0 does not install.',
  display: { short: 'WASM', color: 'text', dash: [8, 4], defaultOn: true, offeredToClass: true },
} as const satisfies BaselineInfo;

export const BASELINE_INFO: readonly BaselineInfo[] = [
  BLAKE3_WASM,
  {
    id: 'hash-wasm',
    title: 'hash-wasm',
    kind: 'peer',
    version: 'hash-wasm@4.13.0',
    digest: 'blake3',
    description: 'A popular library of hand-tuned WebAssembly hashes; its BLAKE3 is C compiled to WASM.',
    display: { short: 'hash-wasm', color: '#44AA99', dash: [3, 3], defaultOn: false, offeredToClass: false },
  },
  {
    id: 'blake3-jit',
    title: 'blake3-jit',
    kind: 'peer',
    version: 'blake3-jit@1.1.0',
    digest: 'blake3',
    description:
      'Pure JavaScript with a SIMD WebAssembly module written at runtime, the same idea as stage 9: ' +
      'the strongest peer a reader can install. It hashes inputs under 4 KiB in plain JavaScript.',
    display: { short: 'blake3-jit', color: '#117733', dash: [10, 3, 2, 3, 2, 3], defaultOn: true, offeredToClass: false },
  },
  {
    id: 'noble-hashes',
    title: '@noble/hashes',
    kind: 'peer',
    version: '@noble/hashes@2.4.0',
    digest: 'blake3',
    description: 'The widely used audited pure-JavaScript hash library: the pure-JS peer to beat.',
    display: { short: 'noble', color: '#661100', dash: [12, 4, 3, 4], defaultOn: false, offeredToClass: false },
  },
  {
    id: 'sha256',
    title: 'SHA-256 (native)',
    kind: 'baseline',
    version: inNode ? 'node:crypto' : 'WebCrypto',
    digest: 'sha256',
    description:
      "The platform's own hash: crypto.subtle.digest in the browser (asynchronous), node:crypto in Node. " +
      'A different function, shown for scale: its digest is SHA-256, not BLAKE3.',
    display: { short: 'SHA-256', color: 'muted', dash: [2, 4], defaultOn: true, offeredToClass: true },
  },
];

/** The independent implementation the self-test and the vector generator check against. */
export const ORACLE_ID = 'noble-hashes';

/** A baseline's facts by id; undefined when there is none. */
export const baselineInfo = (id: string): BaselineInfo | undefined => BASELINE_INFO.find((info) => info.id === id);
