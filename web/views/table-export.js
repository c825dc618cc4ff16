// A table of the page as Markdown, CSV or LaTeX, for a reader to paste elsewhere. The text is
// what the table shows, cell for cell; only the notation changes with the format (the real
// minus sign is kept in Markdown, becomes "-" in CSV so that spreadsheets read numbers, and
// goes into math mode in LaTeX). tableData() reads a rendered table; the formatters are pure.

/**
 * @typedef {object} TableData
 * @property {string} caption
 * @property {string[]} header   the corner cell, then one label per column
 * @property {string[][]} body   per row: its label, then its cells
 * @property {string[][]} footer per footer row: its label, then its cells ('' where empty)
 */

const MINUS = '\u2212';
const NEG_INFINITY = `${MINUS}\u221e`;

/**
 * What a rendered table shows, as text: each number cell's printed value (a masked cell's
 * screen-reader word is left out), or the text of the field in an editable cell the reader is in.
 * @param {HTMLTableElement} table
 * @returns {TableData}
 */
export function tableData(table) {
  const cellText = (cell) => {
    const input = cell.querySelector('input');
    if (input) return input.value.trim();
    const value = cell.querySelector('.value');
    return (value ?? cell).textContent.trim();
  };
  const rows = (section) => Array.from(section?.rows ?? [], (row) => Array.from(row.cells, cellText));
  return {
    caption: table.caption?.textContent.trim() ?? '',
    header: rows(table.tHead)[0] ?? [],
    body: rows(table.tBodies[0]),
    footer: rows(table.tFoot),
  };
}

// ---------------------------------------------------------------------------------------------
// Markdown (GitHub's tables; the caption as pandoc's "Table:" line).

const markdownCell = (text) => text.replace(/\\/gu, '\\\\').replace(/\|/gu, '\\|').replace(/\n/gu, ' ');

/** @param {TableData} table */
export function toMarkdown({ caption, header, body, footer }) {
  const line = (cells) => `| ${cells.map(markdownCell).join(' | ')} |`;
  // The label column reads left-aligned, the numbers right-aligned, as on the page.
  const rule = `| ${header.map((_, c) => (c === 0 ? ':--' : '--:')).join(' | ')} |`;
  const lines = [line(header), rule, ...body.map(line), ...footer.map(line)];
  return `${caption ? `Table: ${markdownCell(caption)}\n\n` : ''}${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted).

/** A printed number as a spreadsheet reads it: "−0.800" -> "-0.800", "−∞" -> "-inf". */
export function machineNumber(text) {
  if (text === NEG_INFINITY) return '-inf';
  if (text === '\u221e') return 'inf';
  return /^\u2212\d/u.test(text) ? `-${text.slice(1)}` : text;
}

const csvField = (text) => (/[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text);

/** @param {TableData} table  (the caption is not part of the data and is left out) */
export function toCsv({ header, body, footer }) {
  const rows = [header, ...body, ...footer];
  return `${rows.map((cells) => cells.map((cell) => csvField(machineNumber(cell))).join(',')).join('\r\n')}\r\n`;
}

// ---------------------------------------------------------------------------------------------
// LaTeX (a tabular in a table float, no packages needed).

const LATEX_SPECIALS = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{',
  '}': '\\}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}',
};
// Symbols the captions and labels use, written the way LaTeX sets them.
const LATEX_SYMBOLS = {
  [MINUS]: '$-$', '\u221e': '$\\infty$', '\u00d7': '$\\times$', '\u00b7': '$\\cdot$', '\u00f7': '$\\div$',
  '\u2193': '$\\downarrow$', '\u2192': '$\\rightarrow$', '\u221a': '$\\surd$', '\u02e3': '$^{x}$',
  '\u00a0': '~',
};
const PRINTED_NUMBER = /^\u2212?(?:\d+(?:\.\d+)?|\u221e)$/u;

/** One cell's text in LaTeX: a printed number in math mode ("$-0.800$"), other text escaped. */
export function latexCell(text) {
  if (PRINTED_NUMBER.test(text)) {
    return `$${text.replace(MINUS, '-').replace('\u221e', '\\infty')}$`;
  }
  return Array.from(text, (char) => LATEX_SPECIALS[char] ?? LATEX_SYMBOLS[char] ?? char).join('');
}

/** @param {TableData} table */
export function toLatex({ caption, header, body, footer }) {
  const row = (cells) => `${cells.map(latexCell).join(' & ')} \\\\`;
  const columns = header.map((_, c) => (c === 0 ? 'l' : 'r')).join('');
  const lines = [
    '\\begin{table}',
    '\\centering',
    ...(caption ? [`\\caption{${latexCell(caption)}}`] : []),
    `\\begin{tabular}{${columns}}`,
    '\\hline',
    row(header),
    '\\hline',
    ...body.map(row),
    ...(footer.length > 0 ? ['\\hline', ...footer.map(row)] : []),
    '\\hline',
    '\\end{tabular}',
    '\\end{table}',
  ];
  return `${lines.join('\n')}\n`;
}

/** The formats a table can be copied in: label, file extension, formatter. */
export const TABLE_FORMATS = Object.freeze([
  Object.freeze({ id: 'markdown', label: 'Markdown', format: toMarkdown }),
  Object.freeze({ id: 'csv', label: 'CSV', format: toCsv }),
  Object.freeze({ id: 'latex', label: 'LaTeX', format: toLatex }),
]);
