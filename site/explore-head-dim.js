// The FAQ's head_dim demonstration: why the scores are divided by √d_k. The core draws seeded
// random queries and keys for each head size and reports the spread of the raw and the scaled
// scores, the largest weight and the entropy per row, and the gradient the softmax passes
// back (core/include/attention/layers/head_dim_study.h). The reader can make the scaled side divide
// by d_k instead, to see why the square root and not the size itself.

import { variantRadios } from './explore-controls.js';
import { formatCompact, formatFixed } from '../web/views/format.js';
import { fillSlot, fillText } from '../web/views/page-slots.js';
import { renderMatrixTable } from '../web/views/render-tables.js';
import { presentTable } from '../web/views/table-block.js';

/**
 * What the page asks the core for: powers of two up to 128 and a modest number of samples,
 * well inside the work the core accepts for one call (HeadDimStudyLimits).
 */
export const STUDY_REQUEST = Object.freeze({
  head_dims: Object.freeze([1, 2, 4, 8, 16, 32, 64, 128]),
  tokens: 8,
  samples: 256,
  seed: 1,
  mask: 'none',
});

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

/**
 * @param {Document} doc
 * @param {object} attention  the core's API
 */
export function createHeadDimStudy(doc, attention) {
  const run = (scale) => {
    const study = attention.headDimStudy({ ...STUDY_REQUEST, head_dims: [...STUDY_REQUEST.head_dims], scale });
    render(study);
    return null;
  };
  const choice = variantRadios(doc, {
    legend: 'The scaled side divides by',
    kind: 'study-scale',
    values: ['sqrt_d', 'd'],
    labels: { sqrt_d: '\u221ad\u2096', d: 'd\u2096' },
    choose: (scale) => {
      try {
        return run(scale);
      } catch (error) {
        return `The demonstration could not be computed: ${error?.message ?? error}`;
      }
    },
  });

  function render(study) {
    const { points, comparison } = study;
    const table = renderMatrixTable(doc, points.map((point) => STUDY_COLUMNS.map(([, read]) => read(point))), {
      name: 'head-dim-study',
      caption: `head_dim from ${points[0].head_dim} to ${points.at(-1).head_dim}: seeded random q and k, ` +
        `${study.tokens} tokens, ${study.samples} samples each, scaled side \u00f7 ${study.scale === 'd' ? 'd\u2096' : '\u221ad\u2096'}`,
      corner: 'head_dim',
      rowLabels: points.map((point) => String(point.head_dim)),
      columnLabels: STUDY_COLUMNS.map(([label]) => label),
      format: STUDY_COLUMNS.map(([, , decimals]) => (value) => formatStudyValue(value, decimals)),
    });
    fillSlot(doc, 'head-dim-study', presentTable(doc, table, {
      describe: ({ row, column, text }) => `${column} at head_dim ${row}: ${text}`,
    }));
    const at = (dim) => points.find((point) => point.head_dim === dim);
    const from = at(comparison.from_head_dim);
    const to = at(comparison.to_head_dim);
    fillText(doc, 'study-largest-dim', String(points.at(-1).head_dim));
    fillText(doc, 'study-tokens', String(study.tokens));
    fillText(doc, 'study-samples', String(study.samples));
    fillText(doc, 'study-flat-entropy', formatFixed(study.max_entropy[0], 3));
    fillText(doc, 'study-from', String(comparison.from_head_dim));
    fillText(doc, 'study-to', String(comparison.to_head_dim));
    fillText(doc, 'study-raw-ratio', formatFixed(comparison.raw_spread_ratio, 2));
    fillText(doc, 'study-expected-ratio', formatFixed(comparison.expected_raw_spread_ratio, 2));
    fillText(doc, 'study-scaled-ratio', formatFixed(comparison.scaled_spread_ratio, 2));
    fillText(doc, 'study-largest-raw', formatFixed(to.unscaled.mean_largest_weight, 3));
    fillText(doc, 'study-largest-raw-from', formatFixed(from.unscaled.mean_largest_weight, 3));
    fillText(doc, 'study-gradient-raw-from', formatFixed(from.unscaled.gradient_norm, 3));
    fillText(doc, 'study-gradient-raw', formatFixed(to.unscaled.gradient_norm, 3));
    fillText(doc, 'study-largest-scaled', formatFixed(to.scaled.mean_largest_weight, 3));
    fillText(doc, 'study-gradient-scaled', formatFixed(to.scaled.gradient_norm, 3));
  }

  return {
    /** Computes and shows the demonstration (about a tenth of a second: run it once the walkthrough is on screen). */
    start() {
      fillSlot(doc, 'head-dim-controls', choice.element);
      choice.sync('sqrt_d');
      run('sqrt_d');
    },
  };
}
