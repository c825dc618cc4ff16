// The working of any computed cell of part one: pointing at a cell, or moving to it with the
// keyboard, shows how the core got that number (web/views/cell-pointing.js), in a panel at the
// end of the cell's step or FAQ lab, and highlights the cells it came from wherever they are on
// the page.

import { showWorkingsOnPoint, workingPanel } from '../web/views/cell-pointing.js';

// The parts of the page with a working panel: each step with computed tables, each FAQ lab,
// and the article's four-token grid.
const HOSTS = 'section.step:not(.demonstration), .faq-lab, section[aria-labelledby="grid-heading"]';

// A cell drawn by an element shows that element's model (the article's four-token example is a
// model of its own); every other cell shows the reader's example.
const PIECES = 'attention-step, attention-mask-grid';

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 */
export function createWorking(doc, session) {
  function panelOf(host) {
    let panel = host.querySelector(':scope > .cell-working');
    if (!panel) {
      panel = workingPanel(doc);
      host.insertBefore(panel, host.querySelector(':scope > .stepper'));
    }
    return panel;
  }
  // Each host says from the start that its cells can be asked how they were worked out.
  for (const host of doc.querySelectorAll(HOSTS)) panelOf(host);
  return showWorkingsOnPoint(doc.querySelector('main'), {
    trace: (td) => {
      const piece = td.closest(PIECES);
      return piece ? piece.trace : session.trace;
    },
    panelFor: (td) => {
      const host = td.closest('.faq-lab, section');
      return host ? panelOf(host) : null;
    },
  });
}
