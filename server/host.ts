// The host's secret: only the person who runs `npm run classroom` may start classes.
// It is made once per data folder (a file readable by its owner only) and printed at
// every start inside the teacher's link, so the link keeps working after a restart. The
// server keeps its hash, checked like every other token (secrets.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashToken, newToken } from './secrets.ts';
import { TOKEN_PATTERN } from '../src/core/class/protocol.ts';

const FILE = 'host-key';

export interface HostKey {
  /** The secret itself, for the teacher's link. */
  key: string;
  hash: Buffer;
}

export function loadHostKey(dataDir: string): HostKey {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, FILE);
  let key = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!TOKEN_PATTERN.test(key)) {
    key = newToken();
    writeFileSync(file, key + '\n', { mode: 0o600 });
  }
  return { key, hash: hashToken(key) };
}

