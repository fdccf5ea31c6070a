// No function of the project's own code runs to 60 lines or more without a `long:` reason
// above it (scripts/long-functions.ts says what is scanned and how lines are counted).
import { describe, expect, it } from 'vitest';
import { findLongFunctions, LONG_LINES, longFunctionsInFile } from '../scripts/long-functions.ts';

/** A function `name` of exactly `lines` lines, its first line being the `function` line. */
const fn = (name: string, lines: number) => [`function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => `  const x${i} = ${i};`), '}'].join('\n');

describe('long functions', () => {
  it('catches a function of 60 lines, not one of 59, and reads a reason from the comment above', () => {
    const text = [fn('short', LONG_LINES - 1), fn('long', LONG_LINES), '// long: kept whole on purpose', fn('explained', LONG_LINES + 5), '// this long: is not a reason', fn('unexplained', LONG_LINES)].join('\n');
    const found = longFunctionsInFile('fixture.ts', text);
    expect(found.map(({ name, line, lines, reason }) => ({ name, line, lines, reason }))).toEqual([
      { name: 'long', line: LONG_LINES, lines: LONG_LINES, reason: null },
      { name: 'explained', line: 2 * LONG_LINES + 1, lines: LONG_LINES + 5, reason: '// long: kept whole on purpose' },
      { name: 'unexplained', line: 3 * LONG_LINES + 7, lines: LONG_LINES, reason: null },
    ]);
  });

  it('names an arrow function by what holds it, and gives a .svelte script its own lines in the file', () => {
    const arrow = `const run = async () => {\n${'  work();\n'.repeat(LONG_LINES - 2)}};`;
    const svelte = `<p>before</p>\n<script lang="ts">\n  ${arrow}\n</script>\n<button onclick={run}>Run</button>`;
    expect(longFunctionsInFile('Page.svelte', svelte).map(({ name, line, lines }) => ({ name, line, lines }))).toEqual([{ name: 'run', line: 3, lines: LONG_LINES }]);
    const callback = `// long: one route, read top to bottom\napp.get('/x', (request) => {\n${'  work();\n'.repeat(LONG_LINES - 2)}});`;
    expect(longFunctionsInFile('routes.ts', callback).map(({ name, reason }) => ({ name, reason }))).toEqual([
      { name: 'app.get(...) callback', reason: '// long: one route, read top to bottom' },
    ]);
  });

  it('finds none in the project without a reason', () => {
    const unexplained = findLongFunctions().filter((found) => found.reason === null);
    expect(unexplained.map(({ lines, file, line, name }) => `${lines}  ${file}:${line}  ${name}`)).toEqual([]);
  });
});
