// The prose around the FAQ's head_dim demonstration (<attention-head-dim-study> in the page):
// the numbers it quotes, written from the element's study each time the reader changes what
// the scaled side divides by.

import { formatFixed } from '../web/views/format.js';
import { studyEstimate as estimate } from '../web/views/head-dim-study-view.js';
import { fillText } from '../web/views/page-slots.js';

function showStudyProse(doc, study) {
  const { points, comparison } = study;
  const at = (dim) => points.find((point) => point.head_dim === dim);
  const from = at(comparison.from_head_dim);
  const to = at(comparison.to_head_dim);
  fillText(doc, 'study-largest-dim', String(points.at(-1).head_dim));
  fillText(doc, 'study-tokens', String(study.tokens));
  fillText(doc, 'study-samples', String(study.samples));
  fillText(doc, 'study-flat-entropy', formatFixed(study.max_entropy[0], 3));
  fillText(doc, 'study-from', String(comparison.from_head_dim));
  fillText(doc, 'study-to', String(comparison.to_head_dim));
  // The figures the sentences quote, each with its standard error over the samples.
  fillText(doc, 'study-raw-ratio', estimate(comparison, 'raw_spread_ratio'));
  fillText(doc, 'study-expected-ratio', formatFixed(comparison.expected_raw_spread_ratio, 2));
  fillText(doc, 'study-scaled-ratio', estimate(comparison, 'scaled_spread_ratio'));
  fillText(doc, 'study-largest-raw', estimate(to.unscaled, 'mean_largest_weight'));
  fillText(doc, 'study-largest-raw-from', estimate(from.unscaled, 'mean_largest_weight'));
  fillText(doc, 'study-gradient-raw-from', estimate(from.unscaled, 'gradient_norm'));
  fillText(doc, 'study-gradient-raw', estimate(to.unscaled, 'gradient_norm'));
  fillText(doc, 'study-largest-scaled', estimate(to.scaled, 'mean_largest_weight'));
  fillText(doc, 'study-gradient-scaled', estimate(to.scaled, 'gradient_norm'));
}

/**
 * Follows the page's study element, and resolves once its first study is on screen (the page
 * calls itself fully computed then).
 * @param {Document} doc
 * @returns {Promise<void>}
 */
export function followHeadDimStudy(doc) {
  const element = doc.getElementById('head-dim-study');
  return new Promise((resolve) => {
    const show = () => {
      showStudyProse(doc, element.study);
      element.closest('[data-slot]')?.removeAttribute('aria-busy');
      resolve();
    };
    element.addEventListener('attention-change', show);
    if (element.study) show();
  });
}
