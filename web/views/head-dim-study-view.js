// The head_dim demonstration as a table: one row per head size, the spread of the raw and the
// scaled scores, a row's largest weight and its entropy, and the gradient the softmax passes
// back, each unscaled and scaled. Every figure is the core's (headDimStudy()); this lays it out.

import { formatCompact, formatEstimate } from './format.js';
import { renderMatrixTable } from './render-tables.js';
import { presentTable } from './table-block.js';

/**
 * The table's columns: header, how to read the value from a point, and how to read its standard
 * error over the samples (null for the divisor, which is exact). Each figure is written with its
 * standard error and to the digits that error leaves meaningful (formatEstimate).
 */
export const STUDY_COLUMNS = Object.freeze([
  ['\u00f7', (p) => p.scale_divisor, null],
  ['raw spread', (p) => p.raw_score_spread, (p) => p.raw_score_spread_standard_error],
  ['scaled spread', (p) => p.scaled_score_spread, (p) => p.scaled_score_spread_standard_error],
  ['largest weight, raw', (p) => p.unscaled.mean_largest_weight, (p) => p.unscaled.mean_largest_weight_standard_error],
  ['largest weight, scaled', (p) => p.scaled.mean_largest_weight, (p) => p.scaled.mean_largest_weight_standard_error],
  ['entropy, raw', (p) => p.unscaled.mean_entropy, (p) => p.unscaled.mean_entropy_standard_error],
  ['entropy, scaled', (p) => p.scaled.mean_entropy, (p) => p.scaled.mean_entropy_standard_error],
  ['gradient, raw', (p) => p.unscaled.gradient_norm, (p) => p.unscaled.gradient_norm_standard_error],
  ['gradient, scaled', (p) => p.scaled.gradient_norm, (p) => p.scaled.gradient_norm_standard_error],
]);

/** A cell's text: the divisor as a compact number, every other figure with its standard error. */
export function studyCellText(point, [, read, readError]) {
  return readError ? formatEstimate(read(point), readError(point)) : formatCompact(read(point), 3);
}

/** How the scaled side's divisor is written: √d_k or d_k. */
export const SCALE_LABELS = Object.freeze({ sqrt_d: '\u221ad\u2096', d: 'd\u2096' });

/**
 * The study's table, as the pages show tables (cells named, arrow keys, Copy table menu).
 * @param {Document} doc
 * @param {object} study  what headDimStudy() returned
 * @returns {HTMLElement}
 */
export function renderStudyTable(doc, study) {
  const { points } = study;
  // The matrix holds each cell's text, already written by studyCellText.
  const table = renderMatrixTable(doc, points.map((point) => STUDY_COLUMNS.map((column) => studyCellText(point, column))), {
    name: 'head-dim-study',
    caption: `head_dim from ${points[0].head_dim} to ${points.at(-1).head_dim}: seeded random q and k, ` +
      `${study.tokens} tokens, ${study.samples} ${study.samples === 1 ? 'sample' : 'samples'} each, ` +
      `scaled side \u00f7 ${SCALE_LABELS[study.scale] ?? study.scale}; ` +
      (study.samples > 1 ? '\u00b1 one standard error over the samples'
        : 'one sample gives no standard error, so the last digits are not to be trusted'),
    corner: 'head_dim',
    rowLabels: points.map((point) => String(point.head_dim)),
    columnLabels: STUDY_COLUMNS.map(([label]) => label),
    format: (text) => text,
  });
  table.setAttribute('part', 'table');
  table.caption?.setAttribute('part', 'caption');
  return presentTable(doc, table, { describe: ({ row, column, text }) => `${column} at head_dim ${row}: ${text}` });
}
