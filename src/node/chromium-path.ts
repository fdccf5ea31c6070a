// Where Debian's Chromium is and the flags a closed-network, root, headless machine
// needs (see README "Browsers"); the bench command and the browser tests launch it alike.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The Chromium the browser tests drive: Debian's headless shell (`apt-get install -y
 * chromium-headless-shell`), the same Blink and V8 as CHROMIUM without the browser's own
 * windows and services, which took an eighth less processor time over the accessibility
 * walk. The command line measures in CHROMIUM, a reader's browser. CHROMIUM_PATH sets both.
 */
export const TEST_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
