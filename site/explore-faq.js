// The FAQ's answers computed on the reader's example: the three ways to scale the scores, the
// three masks (including masking with 0, which leaks weight onto later words), the weight grid
// and the arrows view of whatever the example is now. The controls here and in the toolbar
// change the same state, so the walkthrough above follows as well.

import { maskRadios, scaleRadios } from './explore-controls.js';
import { downloadButtons } from '../web/views/table-tools.js';
import { renderArrows, updateArrows } from '../web/views/arrows.js';
import { DECIMALS, formatFixed } from '../web/views/format.js';
import { element, fillSlot, fillText } from '../web/views/page-slots.js';
import { gridFromTable, gridSvg, standaloneArrowsSvg } from '../web/views/svg-export.js';
import { tableSlot } from '../web/views/table-block.js';
import {
  describeWeight, hasZeroedCells, isZeroedByMask, scaledCaption, shadeLegend, tokenMatrixTable, weightsTable,
} from '../web/views/step-tables.js';
import { describeTokenPair } from '../web/views/cell-navigation.js';

// "Mask: causal (−∞)": the core's label of the trace's mask (attention.vocabulary()).
const maskCaption = (vocabulary, trace) =>
  `Mask: ${vocabulary.masks.find((mask) => mask.name === trace.mask)?.label ?? trace.mask}`;

/**
 * The picture of a grid table as an SVG file, made from what the table shows when the reader
 * asks (`tableOf` finds it then: an element may have drawn it anew since).
 */
export const gridDownloads = (doc, fileName, tableOf) => downloadButtons(doc, {
  fileName, what: 'weight grid', makeSvg: () => gridSvg(gridFromTable(tableOf())),
});

// "the, the first token, gives 0.4900 to cat and 0.1000 to sat": what masking with 0 let
// through, read straight from the core's weights.
function leakSentence(trace) {
  const later = trace.tokens.map((token, j) => ({ token, j })).filter(({ j }) => isZeroedByMask(trace, 0, j));
  if (later.length === 0) return 'with a single token there is no later word for it to leak onto.';
  const shares = later.map(({ token, j }) => `${formatFixed(trace.weights[0][j], DECIMALS.softmax)} to ${token}`);
  if (shares.length === 1) return `${trace.tokens[0]}, the first token, gives ${shares[0]}, a word that comes after it.`;
  const list = `${shares.slice(0, -1).join(', ')} and ${shares.at(-1)}`;
  return `${trace.tokens[0]}, the first token, gives ${list}, all of them words that come after it.`;
}

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 */
export function createFaq(doc, session) {
  const scale = scaleRadios(doc, session, 'Divide the scores by');
  const mask = maskRadios(doc, session, 'Mask');
  fillSlot(doc, 'faq-scale-controls', scale.element);
  fillSlot(doc, 'faq-mask-controls', mask.element);
  const scaledSlot = tableSlot(doc, 'faq-scaled', { describe: describeTokenPair('scaled score', 'against') });
  const weightsSlot = tableSlot(doc, 'faq-weights', { describe: describeWeight });
  const gridSlot = tableSlot(doc, 'faq-grid', { describe: describeWeight, after: (table) => [gridDownloads(doc, 'attention-grid', () => table)] });
  let arrows = null;  // the arrows view on screen: {svg, caption}
  let legendZeroed = null;  // whether the legend on screen explains cells hidden with 0

  function gridLegend(zeroed) {
    const legend = shadeLegend(doc);
    if (zeroed) {
      const item = element(doc, 'li');
      const swatch = element(doc, 'span', 'swatch zeroed');
      swatch.setAttribute('aria-hidden', 'true');
      item.append(swatch, element(doc, 'span', 'swatch-label', 'hidden with 0: weight leaks'));
      legend.querySelector('.legend-swatches').append(item);
    }
    return legend;
  }

  // Redraws the arrows view; when the same arrows are drawn again only their shapes change.
  function showArrows(trace) {
    const options = { row: null, weightDecimals: DECIMALS.softmax };
    const caption = `Arrows view \u00b7 ${maskCaption(session.vocabulary, trace)}: each token\u2019s arrows to the tokens it ` +
      'can see, thicker for a larger weight; arrows above the line go back, below it forward.';
    if (arrows && arrows.caption === caption && doc.contains(arrows.svg) && updateArrows(arrows.svg, trace, options)) return;
    const svg = renderArrows(doc, trace, options);
    const figure = element(doc, 'figure', 'arrows-figure');
    const scroller = element(doc, 'div', 'table-scroll');
    scroller.setAttribute('role', 'region');
    scroller.setAttribute('tabindex', '0');
    scroller.setAttribute('aria-label', 'arrows view');
    scroller.append(svg);
    figure.append(scroller, element(doc, 'figcaption', undefined, caption));
    figure.append(downloadButtons(doc, {
      fileName: 'attention-arrows', what: 'arrows view', makeSvg: () => standaloneArrowsSvg(svg, caption),
    }));
    fillSlot(doc, 'faq-arrows', figure);
    arrows = { svg, caption };
  }

  return {
    /** Draws the FAQ's live tables and pictures for the current trace. */
    render(trace) {
      scale.sync(trace.scale);
      mask.sync(trace.mask);
      scaledSlot.show(tokenMatrixTable(trace, trace.scaled, {
        name: 'faq-scaled', caption: scaledCaption(trace, 'Your example, scaled: '),
      }));
      weightsSlot.show(weightsTable(trace, {
        name: 'faq-weights', caption: 'Your example, the weights that follow',
      }));

      gridSlot.show(weightsTable(trace, {
        name: 'live-grid',
        caption: `${maskCaption(session.vocabulary, trace)} \u00b7 attention weights for \u201c${trace.tokens.join(' ')}\u201d`,
        className: 'grid',
        shade: true,
      }));
      // The legend changes only with whether some cell was hidden with 0.
      const zeroed = hasZeroedCells(trace);
      if (zeroed !== legendZeroed) {
        legendZeroed = zeroed;
        fillSlot(doc, 'faq-grid-legend', gridLegend(zeroed));
      }
      fillText(doc, 'leak', leakSentence(trace));

      showArrows(trace);
    },
  };
}
