// Copying a table (web/table-export.js), in plain Node: Markdown, CSV and LaTeX of a table's
// cells, each written out here in full for a small table, and the escaping of what would
// otherwise break each format.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TABLE_FORMATS, latexCell, machineNumber, toCsv, toLatex, toMarkdown,
} from '../../web/views/table-export.js';

const M = '\u2212';
const table = {
  caption: 'Step 4 \u00b7 softmax of the cat row: weight = e\u02e3 \u00f7 total',
  header: ['key', 'score x', 'e\u02e3', 'weight'],
  body: [
    ['the', '0.100', '1.1052', '0.2799'],
    ['cat', '1.045', '2.8434', '0.7201'],
    ['a|b', `${M}\u221e`, '0.0000', `${M}0.5000`],
  ],
  footer: [['total', '', '3.9486', '1.0000']],
};

describe('copying a table', () => {
  it('writes Markdown with the caption, left-aligned labels and right-aligned numbers', () => {
    assert.equal(toMarkdown(table), [
      'Table: Step 4 \u00b7 softmax of the cat row: weight = e\u02e3 \u00f7 total',
      '',
      '| key | score x | e\u02e3 | weight |',
      '| :-- | --: | --: | --: |',
      '| the | 0.100 | 1.1052 | 0.2799 |',
      '| cat | 1.045 | 2.8434 | 0.7201 |',
      `| a\\|b | ${M}\u221e | 0.0000 | ${M}0.5000 |`,
      '| total |  | 3.9486 | 1.0000 |',
      '',
    ].join('\n'));
  });

  it('writes CSV with CRLF, quoting where needed and numbers a spreadsheet reads', () => {
    assert.equal(toCsv({ ...table, body: [...table.body, ['"x", y', '1', '2', '3']] }), [
      'key,score x,e\u02e3,weight',
      'the,0.100,1.1052,0.2799',
      'cat,1.045,2.8434,0.7201',
      'a|b,-inf,0.0000,-0.5000',
      '"""x"", y",1,2,3',
      'total,,3.9486,1.0000',
      '',
    ].join('\r\n'));
    assert.equal(machineNumber(`${M}0.800`), '-0.800');
    assert.equal(machineNumber('\u221e'), 'inf');
    assert.equal(machineNumber(`${M}x`), `${M}x`, 'only numbers lose their minus sign');
  });

  it('writes LaTeX: a tabular in a table float, numbers in math mode, specials escaped', () => {
    assert.equal(toLatex(table), [
      '\\begin{table}',
      '\\centering',
      '\\caption{Step 4 $\\cdot$ softmax of the cat row: weight = e$^{x}$ $\\div$ total}',
      '\\begin{tabular}{lrrr}',
      '\\hline',
      'key & score x & e$^{x}$ & weight \\\\',
      '\\hline',
      'the & $0.100$ & $1.1052$ & $0.2799$ \\\\',
      'cat & $1.045$ & $2.8434$ & $0.7201$ \\\\',
      'a|b & $-\\infty$ & $0.0000$ & $-0.5000$ \\\\',
      '\\hline',
      'total &  & $3.9486$ & $1.0000$ \\\\',
      '\\hline',
      '\\end{tabular}',
      '\\end{table}',
      '',
    ].join('\n'));
    assert.equal(latexCell('50% of x_1 & {y} #2 $3 ~^\\'),
      '50\\% of x\\_1 \\& \\{y\\} \\#2 \\$3 \\textasciitilde{}\\textasciicircum{}\\textbackslash{}');
    assert.equal(latexCell(`0.2799 \u00d7 V[the]`), '0.2799 $\\times$ V[the]');
    assert.equal(latexCell('query \u2193 key \u2192'), 'query $\\downarrow$ key $\\rightarrow$');
  });

  it('lists its formats in the order the page offers them', () => {
    assert.deepEqual(TABLE_FORMATS.map((f) => [f.id, f.label]), [['markdown', 'Markdown'], ['csv', 'CSV'], ['latex', 'LaTeX']]);
  });
});
