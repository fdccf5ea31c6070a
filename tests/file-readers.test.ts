// How a file's pieces are read (src/core/file/readers.ts): every reader gives the piece's
// bytes, in buffers kept from piece to piece; a reader the runtime lacks is passed over; a
// read that stalls is given up by the watchdog and the piece read again, whole, by the next
// reader, so a file hashed through a stalling reader still gets its own digest; slow reads
// that keep making progress, and time the thread spends hashing, never count as a stall.
import { blake3 } from '@noble/hashes/blake3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectCapabilities } from '../src/core/bench/capabilities.ts';
import { hashPart, loadKernel, readPart } from '../src/core/file/part-hasher.ts';
import { PieceReader, READER_ORDER, type ReaderKind } from '../src/core/file/readers.ts';
import { partAt, partCount, planParts, rootFromParts, toHex } from '../src/core/file/tree.ts';

const MiB = 1024 * 1024;

function bytesOf(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Whether two byte ranges are equal (expect's deep equality takes seconds on a megabyte). */
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

/** The file's digest as the pool computes it: every part read by `reader` and hashed, then merged. */
async function hashFile(file: Blob, reader: PieceReader, workers = 2): Promise<string> {
  const plan = planParts(file.size, workers);
  const cvs: Uint8Array[] = [];
  for (let i = 0; i < partCount(plan); i++) cvs.push(await hashPart(file, partAt(plan, i), reader));
  return toHex(cvs.length === 1 ? cvs[0] : rootFromParts(cvs));
}

beforeAll(async () => {
  expect(await loadKernel(10, detectCapabilities())).toBeUndefined();
});

describe('the readers', () => {
  const data = bytesOf(3 * MiB + 7);
  const file = new Blob([data]);

  for (const kind of ['byob', 'slice', 'stream'] as const) {
    it(`${kind} reads any range of the file, exactly`, async () => {
      const reader = new PieceReader(MiB, 2, { readers: [kind] });
      for (const [start, end] of [[0, 1], [0, MiB], [MiB, 2 * MiB], [3 * MiB, 3 * MiB + 7], [5, 5 + 70_000]]) {
        const bytes = await reader.read(file, start, end);
        expect(same(bytes, data.subarray(start, end)), `${start}..${end}`).toBe(true);
        reader.release(bytes);
      }
      expect(reader.reader).toBe(kind);
      expect(reader.takeSwitches()).toEqual([]);
    });
  }

  it('keeps the buffers of the readers that can: the next piece is read into the last one', async () => {
    for (const kind of ['byob', 'stream'] as const) {
      const reader = new PieceReader(MiB, 1, { readers: [kind] });
      const first = await reader.read(file, 0, MiB);
      const memory = first.buffer;
      reader.release(first);
      const second = await reader.read(file, MiB, 2 * MiB);
      expect(same(second, data.subarray(MiB, 2 * MiB))).toBe(true);
      // A BYOB read hands the memory back as a new ArrayBuffer object: compare where it lives by content instead.
      if (kind === 'stream') expect(second.buffer).toBe(memory);
      else expect(memory.byteLength).toBe(0); // moved into the read, never copied
    }
  });

  it('passes over a reader this runtime lacks at once (FileReaderSync exists only in browser workers)', async () => {
    const reader = new PieceReader(MiB, 1, { readers: ['sync', 'slice'] });
    expect(same(await reader.read(file, 0, 10), data.subarray(0, 10))).toBe(true);
    expect(reader.takeSwitches()).toEqual([{ from: 'sync', to: 'slice', why: 'unavailable', detail: expect.stringMatching(/FileReaderSync/) }]);
  });

  it('tries the BYOB reader first, in every engine', () => {
    expect(READER_ORDER[0]).toBe('byob');
    expect([...READER_ORDER].sort()).toEqual(['byob', 'slice', 'stream', 'sync']);
  });
});

describe('the watchdog', () => {
  const data = bytesOf(5 * MiB + 3, 7);
  const file = new Blob([data]);
  const expected = toHex(blake3(data));

  for (const stall of ['byob', 'stream', 'slice'] as ReaderKind[]) {
    it(`gives up a ${stall} read that stalls and reads the piece again with the next reader: the file's own digest`, async () => {
      const readers = [stall, ...(['byob', 'slice', 'stream'] as ReaderKind[]).filter((k) => k !== stall)];
      const reader = new PieceReader(MiB, 2, { readers, stall, stallMs: 300 });
      const started = performance.now();
      expect(await hashFile(file, reader)).toBe(expected);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      expect(reader.takeSwitches()).toEqual([{ from: stall, to: readers[1], why: 'stalled', detail: expect.stringMatching(/no bytes came for \d+ s/) }]);
      expect(reader.reader).toBe(readers[1]);
    });
  }

  it('fails the file, saying why, when the last reader stalls too: never a digest', async () => {
    const reader = new PieceReader(MiB, 1, { readers: ['stream'], stall: 'stream', stallMs: 200 });
    await expect(hashFile(file, reader)).rejects.toThrow(/could not be read here: stream: no bytes came/);
  });

  it('leaves a slow read alone while bytes keep coming', async () => {
    // 8 chunks, 200 ms apart: 1.6 s in all, with a watchdog of 1 s. The read takes longer
    // than the watchdog's limit, each gap a fifth of it (timers run late on a busy machine).
    const chunk = data.subarray(0, 64 * 1024);
    const slow = {
      size: chunk.length * 8,
      slice: () => slow,
      stream: () => {
        let sent = 0;
        return new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (sent === 8) return controller.close();
            await new Promise((resolve) => setTimeout(resolve, 200));
            controller.enqueue(chunk.slice());
            sent++;
          },
        });
      },
    } as unknown as Blob;
    const reader = new PieceReader(MiB, 1, { readers: ['stream', 'slice'], stallMs: 1000 });
    const bytes = await reader.read(slow, 0, chunk.length * 8);
    expect(bytes.length).toBe(chunk.length * 8);
    expect(reader.takeSwitches()).toEqual([]);
  });

  it('does not count the time the thread spent busy against a read', async () => {
    // The bytes come 20 ms after the thread is free again, after the watchdog's own late tick.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const piece = data.subarray(0, MiB);
    const late = {
      size: piece.length,
      slice: () => late,
      stream: () =>
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await gate;
            controller.enqueue(piece.slice());
            controller.close();
          },
        }),
    } as unknown as Blob;
    const reader = new PieceReader(MiB, 2, { readers: ['stream', 'slice'], stallMs: 300 });
    const read = reader.read(late, 0, MiB);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The thread hashes for 1.5 s (stage 0 on a large piece does far worse): no byte can arrive meanwhile.
    const until = performance.now() + 1500;
    while (performance.now() < until);
    setTimeout(open, 20);
    expect(same(await read, piece)).toBe(true);
    expect(reader.takeSwitches()).toEqual([]);
  });

  it('reads only, all of it, when asked to', async () => {
    const reader = new PieceReader(MiB, 2, { readers: ['byob'] });
    const plan = planParts(file.size, 2);
    for (let i = 0; i < partCount(plan); i++) await readPart(file, partAt(plan, i), reader);
    expect(reader.takeSwitches()).toEqual([]);
  });
});
