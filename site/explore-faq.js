// The FAQ's answers computed on the reader's example: the three ways to scale the scores, the
// three masks (including masking with 0, which leaks weight onto later words), the weight grid
// and the arrows view of whatever the example is now (elements showing the page's model). The
// controls here and in the toolbar change the same state, so the walkthrough above follows.

import { maskRadios, scaleRadios } from './explore-controls.js';
import { downloadButtons } from '../web/views/table-tools.js';
import { DECIMALS, formatFixed } from '../web/views/format.js';
import { element, fillSlot, fillText } from '../web/views/page-slots.js';
import { gridFromTable, gridSvg, standaloneArrowsSvg } from '../web/views/svg-export.js';
import { hasZeroedCells, isZeroedByMask, shadeLegend } from '../web/views/step-tables.js';
import { tokenText } from '../web/views/token-text.js';

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
  const shares = later.map(({ token, j }) => `${formatFixed(trace.weights[0][j], DECIMALS.softmax)} to ${tokenText(token)}`);
  if (shares.length === 1) return `${tokenText(trace.tokens[0])}, the first token, gives ${shares[0]}, a word that comes after it.`;
  const list = `${shares.slice(0, -1).join(', ')} and ${shares.at(-1)}`;
  return `${tokenText(trace.tokens[0])}, the first token, gives ${list}, all of them words that come after it.`;
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
  // The labs' tables and arrows are elements showing the page's model (index.html); the page
  // adds the pictures' downloads under them, made from what they show when the reader asks.
  const grid = doc.getElementById('live-grid');
  grid.after(gridDownloads(doc, 'attention-grid', () => grid.querySelector('table[data-table]')));
  const arrows = doc.getElementById('live-arrows');
  arrows.after(downloadButtons(doc, {
    fileName: 'attention-arrows',
    what: 'arrows view',
    makeSvg: () => standaloneArrowsSvg(arrows.querySelector('svg'), arrows.querySelector('figcaption')?.textContent ?? ''),
  }));
  const labSlots = ['faq-scaled', 'faq-weights', 'faq-grid', 'faq-arrows'].map((name) => doc.querySelector(`[data-slot="${name}"]`));
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

  return {
    /** Brings the FAQ's controls, the grid's key and the leak sentence up to the current trace. */
    render(trace) {
      scale.sync(trace.scale);
      mask.sync(trace.mask);
      for (const place of labSlots.splice(0)) place.removeAttribute('aria-busy');
      // The legend changes only with whether some cell was hidden with 0.
      const zeroed = hasZeroedCells(trace);
      if (zeroed !== legendZeroed) {
        legendZeroed = zeroed;
        fillSlot(doc, 'faq-grid-legend', gridLegend(zeroed));
      }
      fillText(doc, 'leak', leakSentence(trace));
    },
  };
}
