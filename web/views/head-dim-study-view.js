// The head_dim demonstration as a table: one row per head size, the spread of the raw and the
// scaled scores, a row's largest weight and its entropy, and the gradient the softmax passes
// back, each unscaled and scaled. Every figure is the core's (headDimStudy()); this lays it out.

import { counted, formatCompact, formatEstimate } from './format.js';
import { renderMatrixTable } from './render-tables.js';
import { presentTable } from './table-block.js';

/**
 * One figure of the study with its standard error over the samples, written to the digits that
 * error leaves meaningful (formatEstimate): `figures[name]` and `figures[name + "_standard_error"]`,
 * the way the core names them.
 * @param {object} figures  a point, a side of one (point.unscaled, point.scaled) or the comparison
 * @param {string} name
 * @returns {string}
 */
export const studyEstimate = (figures, name) => formatEstimate(figures[name], figures[`${name}_standard_error`]);

/**
 * The table's columns: header, which side of a point holds the figure (null: the point itself),
 * and the figure's name. The divisor is exact; every other figure has its standard error.
 */
export const STUDY_COLUMNS = Object.freeze([
  ['\u00f7', null, 'scale_divisor'],
  ['raw spread', null, 'raw_score_spread'],
  ['scaled spread', null, 'scaled_score_spread'],
  ['largest weight, raw', 'unscaled', 'mean_largest_weight'],
  ['largest weight, scaled', 'scaled', 'mean_largest_weight'],
  ['entropy, raw', 'unscaled', 'mean_entropy'],
  ['entropy, scaled', 'scaled', 'mean_entropy'],
  ['gradient, raw', 'unscaled', 'gradient_norm'],
  ['gradient, scaled', 'scaled', 'gradient_norm'],
]);

/** A cell's text: the divisor as a compact number, every other figure with its standard error. */
export function studyCellText(point, [, side, name]) {
  if (name === 'scale_divisor') return formatCompact(point.scale_divisor, 3);
  return studyEstimate(side ? point[side] : point, name);
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
      `${study.tokens} tokens, ${counted(study.samples, 'sample', 'samples')} each, ` +
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
