// The table layout epic-wallet's lists print (prettytable's FORMAT_NO_COLSEP): no column
// separators, one space of padding on each side of a cell, a dashed line above, between rows and
// below, and `=` under the titles. Cells are left-aligned and padded to the widest of their
// column, titles included. Colour is left out (Epic only colours a terminal).

/** Width of one column: its widest cell, title included. */
function widths(rows: readonly (readonly string[])[]): number[] {
  const w: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      w[i] = Math.max(w[i] ?? 0, c.length);
    });
  return w;
}

/** A FORMAT_NO_COLSEP table with its trailing newline. */
export function noColsepTable(
  titles: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const w = widths([titles, ...rows]);
  const rule = (ch: string): string => ch.repeat(w.reduce((s, n) => s + n + 2, 0));
  const line = (cells: readonly string[]): string =>
    w.map((n, i) => ` ${(cells[i] ?? '').padEnd(n)} `).join('');
  const out = [rule('-'), line(titles), rule('=')];
  rows.forEach((r, i) => {
    if (i > 0) out.push(rule('-'));
    out.push(line(r));
  });
  out.push(rule('-'));
  return `${out.join('\n')}\n`;
}
