// The working of any computed cell of part one: pointing at a cell, or moving to it with the
// keyboard, shows how the core got that number (web/views/cell-pointing.js), in a panel at the
// end of the cell's step or FAQ lab, and highlights the cells it came from wherever they are on
// the page.

import { showWorkingsOnPoint, workingPanel } from '../web/views/cell-pointing.js';

// The parts of the page with a working panel: each step with computed tables, each FAQ lab,
// and the article's four-token grid.
const HOSTS = 'section.step:not(.demonstration), .faq-lab, section[aria-labelledby="grid-heading"]';

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 * @param {object} articleTrace  the trace of the article's four-token example (its grid and rows)
 */
export function createWorking(doc, session, articleTrace) {
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
    trace: () => session.trace,
    articleTrace,
    panelFor: (td) => {
      const host = td.closest('.faq-lab, section');
      return host ? panelOf(host) : null;
    },
  });
}
