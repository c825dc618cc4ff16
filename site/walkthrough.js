// The walkthrough page: loads the attention core (C++ compiled to WebAssembly), shows the
// article's example, and lets the reader change any of it. This module only wires the page's
// parts together and says what happens when the core cannot run; each part lives in its own
// module (site/explore-*.js, site/walkthrough-steps.js) and every number comes from the core.

import { createControls } from './explore-controls.js';
import { createFaq, gridDownloads } from './explore-faq.js';
import { followHeadDimStudy } from './explore-head-dim.js';
import { createHeads, layerInputChanged } from './explore-heads.js';
import { createPractice } from './explore-practice.js';
import { createPracticePrint } from './explore-print.js';
import { ExploreSession } from './explore-session.js';
import { LINK_EVENT, createShare } from './explore-share.js';
import { createSourceChoice } from './explore-source.js';
import { createStepper } from './explore-stepper.js';
import { createVerify } from './explore-verify.js';
import { createWorking } from './explore-working.js';
import { announceAllComputed } from './load-status.js';
import { fillSlot, paragraph } from '../web/views/page-slots.js';
import { attentionInput, sameInput, withCell } from '../web/state/page-state.js';
import { describeInputError } from '../web/elements/element-config.js';
import { createSteps, dropPlacedPieces, renderArticleGrid } from './walkthrough-steps.js';

const page = document;

// ---------------------------------------------------------------------------------------------
// Loading, and what the page says when it cannot compute.

function showProblem(message) {
  const problem = page.getElementById('load-problem');
  problem.textContent = message;
  problem.hidden = false;
  page.getElementById('load-status').hidden = true;
  page.getElementById('verify-status').hidden = true;
  page.documentElement.classList.add('results-unavailable');
  // The page says why once; its model elements would say the same again in more alerts.
  for (const id of ['walk', 'four-words']) page.getElementById(id)?.remove();
  for (const target of page.querySelectorAll('[data-slot]')) {
    target.replaceChildren(paragraph(page, 'not-computed', 'Not computed.'));
    target.removeAttribute('aria-busy');
  }
  for (const target of page.querySelectorAll('[data-fill]')) target.classList.add('unavailable');
}

async function loadAttention() {
  if (typeof globalThis.WebAssembly !== 'object' || globalThis.WebAssembly === null) {
    throw new Error('This page computes its numbers with WebAssembly, and this browser does ' +
      'not provide it (it may be turned off). None of the tables below could be computed.');
  }
  try {
    const { createAttention } = await import('../web/attention-explainer.js');
    return await createAttention();
  } catch (error) {
    throw new Error('The WebAssembly attention module failed to load, so none of the tables ' +
      `below could be computed. (${error?.message ?? error})`);
  }
}

// ---------------------------------------------------------------------------------------------

function startExplorer(attention) {
  const session = new ExploreSession(attention);
  const stepper = createStepper(page, session);
  const controls = createControls(page, session, { walkButton: stepper.walkButton });
  fillSlot(page, 'explore-controls', controls.element);
  fillSlot(page, 'explore-source', createSourceChoice(page, session).element);
  const steps = createSteps(page);
  const faq = createFaq(page, session);
  const heads = createHeads(page);
  // The article's second example, which the reader's changes leave alone: a model of its own,
  // shown once, that the grid and worked-row elements of its section show.
  const { article } = session;
  const fourWords = page.getElementById('four-words').attentionModel;
  if (!fourWords.connected) fourWords.connect(attention);
  fourWords.show(article.four_words, attention.run(article.four_words));
  renderArticleGrid(page, fourWords.trace, article.four_words_worked_rows,
    (tableOf) => gridDownloads(page, 'attention-grid-article', tableOf));
  const working = createWorking(page, session);
  const verify = createVerify(page, session);
  const practice = createPractice(page, session, { showRows: (trace, rows) => steps.showPracticeRows(trace, rows) });
  fillSlot(page, 'explore-practice', practice.element);
  const share = createShare(page, session, practice);
  practice.onChange = () => share.exerciseChanged();
  const print = createPracticePrint(page);
  share.addEventListener(LINK_EVENT, (event) => print.show(event.detail));

  // The page's one model, which the elements placed in the prose show: the session has run
  // each accepted state through the core, and hands the model its trace.
  const model = page.getElementById('walk').attentionModel;
  if (!model.connected) model.connect(attention);
  // A reader's edit in the Q, K and V steps is a change of the page's state: checked against
  // the page's limits, recorded in the history and the link, and shown through the session.
  model.editor = (matrix, row, col, value, { history }) => {
    const problem = session.propose(withCell(session.state, matrix, row, col, value), { history, origin: 'cell' });
    return problem === null ? null : describeInputError(problem);
  };
  session.addEventListener('change', (event) => {
    const { previous, history } = event.detail;
    const { state, trace } = session;
    const redrawn = !previous || !sameInput(previous, state);
    if (redrawn) {
      dropPlacedPieces(page, trace.token_count);
      model.show(attentionInput(state), trace);
      steps.render(trace);
      faq.render(trace);
      working.refresh();
    }
    practice.render(trace, { redrawn });
    if (layerInputChanged(previous, state)) heads.render(state);
    controls.sync(state);
    stepper.sync(state, previous);
    verify.sync();
    share.record(history);
  });
  share.start();
}

async function main() {
  let attention;
  try {
    attention = await loadAttention();
  } catch (error) {
    showProblem(error.message);
    return;
  }
  try {
    startExplorer(attention);
    // The FAQ's head_dim study is made as soon as the core has loaded, before the first frame
    // that draws the tables, so that one frame draws the whole page.
    await followHeadDimStudy(page);
  } catch (error) {
    showProblem(`The numbers could not be computed: ${error?.message ?? error}`);
    return;
  }
  announceAllComputed(page);
}

main();
