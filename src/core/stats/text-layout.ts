// A small layout engine for fixed-width text tables, with the behaviour benchstat's
// tables rely on: cells that span columns, a left margin per cell (" │ ", " ± ") that
// lines up down the column, left/center/right alignment, and "shrink" columns that never
// widen to fit a spanning header. Widths count code points, so "µ" and "│" are one.

export type Align = 'left' | 'center' | 'right';

export interface CellOptions {
  align?: Align;
  /** Text printed before the cell, right-aligned in a strip as wide as the column's widest margin. */
  margin?: string;
}

interface Cell {
  row: number;
  col: number;
  span: number;
  value: string;
  margin: string;
  align: Align;
}

const width = (s: string) => [...s].length;

export class TextTable {
  private cells: Cell[] = [];
  private cols = 0;
  private shrink: boolean[] = [];
  private curRow = 0;
  private curCol = 0;

  /** Start a new row. */
  row(): this {
    if (this.cells.length > 0) this.curRow++;
    this.curCol = 0;
    return this;
  }

  /** Move to column `col` of the current row (never backwards). */
  col(col: number): this {
    if (col < this.curCol) throw new RangeError(`cannot move from column ${this.curCol} back to ${col}`);
    this.curCol = col;
    return this;
  }

  get column(): number {
    return this.curCol;
  }

  cell(value: string, options: CellOptions = {}): this {
    return this.span(1, value, options);
  }

  /** A cell covering `cols` columns. Without an explicit margin, cells get one space, except in column 0 and when empty. */
  span(cols: number, value: string, options: CellOptions = {}): this {
    const margin = options.margin ?? (this.curCol === 0 || value.length === 0 ? '' : ' ');
    this.cells.push({ row: this.curRow, col: this.curCol, span: cols, value, margin, align: options.align ?? 'left' });
    this.curCol += cols;
    this.cols = Math.max(this.cols, this.curCol);
    return this;
  }

  setShrink(col: number, shrink = true): void {
    while (this.shrink.length <= col) this.shrink.push(false);
    this.shrink[col] = shrink;
  }

  /** Column widths (margins included): single cells first, then spanning cells, narrowest span first. */
  private widths(): { margins: number[]; widths: number[] } {
    const margins = new Array<number>(this.cols).fill(0);
    for (const c of this.cells) margins[c.col] = Math.max(margins[c.col], width(c.margin));
    const widths = new Array<number>(this.cols).fill(0);
    const bySpan = [...this.cells].sort((a, b) => a.span - b.span);
    for (const c of bySpan) {
      let need = width(c.value) + margins[c.col];
      if (c.span === 1) {
        widths[c.col] = Math.max(widths[c.col], need);
        continue;
      }
      let have = 0;
      for (let i = c.col; i < c.col + c.span; i++) have += widths[i];
      if (have >= need) continue;
      // Grow the growable columns towards an even share of what is still needed,
      // widest first, so columns already wider than the share keep their width.
      const growable: number[] = [];
      for (let i = c.col; i < c.col + c.span; i++) {
        if (this.shrink[i]) need -= widths[i];
        else growable.push(i);
      }
      growable.sort((a, b) => widths[b] - widths[a]);
      let left = growable.length;
      for (const i of growable) {
        widths[i] = Math.max(widths[i], Math.ceil(need / left));
        need -= widths[i];
        left--;
      }
    }
    return { margins, widths };
  }

  toString(): string {
    if (this.cells.length === 0) return '';
    const { margins, widths } = this.widths();
    const offsets = [0];
    for (const w of widths) offsets.push(offsets[offsets.length - 1] + w);
    const cells = [...this.cells].sort((a, b) => a.row - b.row || a.col - b.col);
    let out = '';
    let row = 0;
    let at = 0;
    for (const c of cells) {
      // Blank cells print nothing, so lines carry no trailing spaces.
      if (c.value.trim() === '' && c.margin.trim() === '') continue;
      for (; row < c.row; row++) {
        out += '\n';
        at = 0;
      }
      const margin = c.margin.padStart(margins[c.col]);
      out += ' '.repeat(offsets[c.col] - at) + margin;
      at = offsets[c.col] + margins[c.col];
      const room = offsets[c.col + c.span] - offsets[c.col] - margins[c.col];
      const text = pad(c.value, room, c.align);
      out += text;
      at += width(text);
    }
    return `${out}\n`;
  }
}

function pad(value: string, room: number, align: Align): string {
  const gap = room - width(value);
  if (align === 'right') return ' '.repeat(Math.max(gap, 0)) + value;
  if (align === 'center') return ' '.repeat(Math.max(Math.floor(gap / 2), 0)) + value;
  return value;
}

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Footnote marks: 1 -> "¹", 12 -> "¹²". */
export function superscript(n: number): string {
  return String(n)
    .split('')
    .map((d) => SUPERSCRIPT_DIGITS[Number(d)])
    .join('');
}
