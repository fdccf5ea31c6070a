// A minimal streaming zip writer (PKWARE APPNOTE 6.3.10, sections 4.3 and 4.4): deflated files,
// no folders, no zip64. Enough for a class export of a few hundred small files, which
// every operating system opens by double-clicking.
import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';

const deflate = promisify(deflateRaw);

export interface ZipFile {
  name: string;
  data: Buffer;
}

/** MS-DOS date and time, the only timestamp the basic format has (2-second steps, local time). */
function dosDateTime(date: Date): [time: number, day: number] {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return [time, day];
}

/**
 * The zip, piece by piece, as the files come: each is compressed off the main thread
 * (zlib's thread pool), so writing a class of large documents never holds the server up,
 * and only one file is in memory at a time.
 */
export async function* zipStream(files: AsyncIterable<ZipFile> | Iterable<ZipFile>, date = new Date()): AsyncGenerator<Buffer> {
  const [time, day] = dosDateTime(date);
  const centrals: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for await (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const packed = await deflate(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); // local file header signature
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // flags: names are UTF-8
    local.writeUInt16LE(8, 8); // method: deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc32(file.data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // no extra field
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); // central directory header signature
    central.writeUInt16LE(20, 4); // made by: 2.0
    local.copy(central, 6, 4, 30); // version needed .. name length: as in the local header
    // comment length, disk number, internal and external attributes: zero
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
    count++;
    yield Buffer.concat([local, name, packed]);
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); // end of central directory signature
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([directory, end]);
}
