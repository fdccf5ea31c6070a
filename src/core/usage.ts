// A command's --help, made from one list of its options: each option's flag, what
// follows it, and its help in words, wrapped to 80 columns. The parsers read the same
// list to know which options take a value, so the help and the parser cannot disagree.

export interface UsageOption {
  /** "--rounds", or "-h, --help". */
  flag: string;
  /** What follows the flag ("N", "FILE"); "[LIST]" when it may be left out; none for a switch. */
  value?: string;
  help: string;
}

/** `text` in lines of at most `width` characters, broken between words. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * The help: `head` (the usage line and what the command does, one paragraph a string,
 * wrapped), then every option with its help from `column` on.
 */
export function usage(head: string[], options: readonly UsageOption[], column = 21): string {
  const paragraphs = head.flatMap((paragraph, i) => [...(i > 0 ? [''] : []), ...wrap(paragraph, 80)]);
  const rows = options.flatMap(({ flag, value, help }) => {
    const name = `${flag} ${value ?? ''}`.trim();
    // A name too long for its column gets a line of its own.
    const first = name.length <= column - 3 ? `  ${name.padEnd(column - 3)} ` : null;
    const lines = wrap(help, 80 - column).map((line) => `${' '.repeat(column)}${line}`);
    if (first) lines[0] = first + lines[0].trimStart();
    else lines.unshift(`  ${name}`);
    return lines;
  });
  return [...paragraphs, '', ...rows].join('\n');
}

/** Options followed by a value (an optional "[LIST]" is read by its parser on its own). */
export const valueOptions = (options: readonly UsageOption[]): Set<string> =>
  new Set(options.filter((option) => option.value && !option.value.startsWith('[')).map((option) => option.flag));
