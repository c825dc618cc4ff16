// The head_dim demonstration as a table: one row per head size, the spread of the raw and the
// scaled scores, a row's largest weight and its entropy, and the gradient the softmax passes
// back, each unscaled and scaled. Every figure is the core's (headDimStudy()); this lays it out.

import { formatCompact, formatFixed } from './format.js';
import { renderMatrixTable } from './render-tables.js';
import { presentTable } from './table-block.js';

/** The table's columns: header, how to read the value from a point, decimals. */
export const STUDY_COLUMNS = Object.freeze([
  ['\u00f7', (p) => p.scale_divisor, 'compact'],
  ['raw spread', (p) => p.raw_score_spread, 3],
  ['scaled spread', (p) => p.scaled_score_spread, 3],
  ['largest weight, raw', (p) => p.unscaled.mean_largest_weight, 3],
  ['largest weight, scaled', (p) => p.scaled.mean_largest_weight, 3],
  ['entropy, raw', (p) => p.unscaled.mean_entropy, 3],
  ['entropy, scaled', (p) => p.scaled.mean_entropy, 3],
  ['gradient, raw', (p) => p.unscaled.gradient_norm, 3],
  ['gradient, scaled', (p) => p.scaled.gradient_norm, 3],
]);

const formatStudyValue = (value, decimals) => (decimals === 'compact' ? formatCompact(value, 3) : formatFixed(value, decimals));

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
  const table = renderMatrixTable(doc, points.map((point) => STUDY_COLUMNS.map(([, read]) => read(point))), {
    name: 'head-dim-study',
    caption: `head_dim from ${points[0].head_dim} to ${points.at(-1).head_dim}: seeded random q and k, ` +
      `${study.tokens} tokens, ${study.samples} samples each, scaled side \u00f7 ${SCALE_LABELS[study.scale] ?? study.scale}`,
    corner: 'head_dim',
    rowLabels: points.map((point) => String(point.head_dim)),
    columnLabels: STUDY_COLUMNS.map(([label]) => label),
    format: STUDY_COLUMNS.map(([, , decimals]) => (value) => formatStudyValue(value, decimals)),
  });
  table.setAttribute('part', 'table');
  table.caption?.setAttribute('part', 'caption');
  return presentTable(doc, table, { describe: ({ row, column, text }) => `${column} at head_dim ${row}: ${text}` });
}
