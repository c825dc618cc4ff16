// Part one's printed exercise. When the page's exercise is on (explore-practice.js: a link's,
// or the one the reader set), this shows the box with "Print worksheet" and "Print answer key",
// fills an <attention-worksheet> with the exercise (a round's keys, or the blank list with the
// walkthrough's inputs as the page shows them), and marks the page so that its print sheet
// prints the worksheet instead of the walkthrough. A malformed exercise is refused with the
// link module's message and no worksheet. It follows the page's link: explore-share.js
// announces every link it applies or writes (LINK_EVENT), with the exercise explore-practice.js
// holds; nothing here reads the address. The element computes and draws; this only wires it.

import { AttentionWorksheetElement, definePracticeElements } from '../web/attention-practice-elements.js';
import { WORKSHEET_EVENT } from '../web/elements/practice/worksheet-element.js';
import { formatTokens } from '../web/elements/element-config.js';
import { formatBlankList } from '../web/state/practice-hash.js';

// The element's attributes for the exercise: the round's, or the blanks and the inputs shown.
function exerciseAttributes(exercise, state) {
  const attributes = {};
  if (exercise.blanks !== undefined) attributes.practice = formatBlankList(exercise.blanks);
  if (exercise.round !== undefined) {
    attributes.round = exercise.round;
    if (exercise.seed !== undefined) attributes['round-seed'] = String(exercise.seed);
    if (exercise.level !== undefined) attributes.level = exercise.level;
    return attributes;
  }
  attributes.tokens = formatTokens(state.tokens);
  for (const name of ['q', 'k', 'v']) attributes[name] = JSON.stringify(state[name]);
  attributes.mask = state.mask;
  attributes.scale = state.scale;
  return attributes;
}

/**
 * @param {Document} doc
 * @returns {{show: (link: {exercise: object | null, problem: string | null, state: object}) => void}}
 *          show: the page's link as explore-share.js announces it (LINK_EVENT's detail)
 */
export function createPracticePrint(doc) {
  const view = doc.defaultView;
  const box = doc.querySelector('[data-practice-print]');
  const problemBox = box.querySelector('.practice-print-problem');
  const controls = box.querySelector('.practice-print-controls');
  const showButton = box.querySelector('[data-show-worksheet]');
  let worksheet = null;
  let linkAnswers = false;  // what the link asks for: the mode to return to after printing
  let shown = null;         // what the box was last drawn for

  definePracticeElements();

  // The box's message; an alert only while it says something (an empty one would be a second
  // alert on the page beside the walkthrough's own).
  function say(text) {
    problemBox.textContent = text;
    problemBox.hidden = text === '';
    if (text === '') problemBox.removeAttribute('role');
    else problemBox.setAttribute('role', 'alert');
  }

  // No worksheet: nothing to print but the page itself.
  function dropWorksheet() {
    controls.hidden = true;
    worksheet?.remove();
    worksheet = null;
    delete doc.documentElement.dataset.printWorksheet;
  }

  function refuse(text) {
    say(text);
    dropWorksheet();
  }

  function drawWorksheet(attributes, answers) {
    linkAnswers = answers;
    const element = new AttentionWorksheetElement();
    element.id = 'practice-worksheet';
    element.classList.toggle('folded', showButton.getAttribute('aria-expanded') !== 'true');
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    if (linkAnswers) element.setAttribute('answers', '');
    say('');
    dropWorksheet();
    box.append(element);
    worksheet = element;
    controls.hidden = false;
  }

  box.addEventListener(WORKSHEET_EVENT, (event) => {
    if (event.target !== worksheet) return;
    if (event.detail.ok) {
      doc.documentElement.dataset.printWorksheet = event.detail.answers ? 'answers' : 'worksheet';
    } else {
      refuse(`The worksheet could not be made: ${event.detail.problem}`);
    }
  });

  // Sets the mode, waits for the worksheet to be drawn in it, then opens the browser's print.
  async function printAs(answers) {
    if (!worksheet) return;
    if (Boolean(worksheet.layout?.answers) !== answers || !worksheet.layout) {
      const drawn = new Promise((resolve) => worksheet.addEventListener(WORKSHEET_EVENT, resolve, { once: true }));
      worksheet.toggleAttribute('answers', answers);
      await drawn;
    }
    if (worksheet?.layout) view.print();
  }

  for (const button of box.querySelectorAll('[data-print]')) {
    button.addEventListener('click', () => printAs(button.dataset.print === 'answers'));
  }

  showButton.addEventListener('click', () => {
    const open = showButton.getAttribute('aria-expanded') !== 'true';
    showButton.setAttribute('aria-expanded', String(open));
    showButton.textContent = open ? 'Hide the worksheet' : 'Show the worksheet';
    worksheet?.classList.toggle('folded', !open);
  });

  // After printing, the worksheet returns to what the link asked for.
  view.addEventListener('afterprint', () => worksheet?.toggleAttribute('answers', linkAnswers));

  return {
    show({ exercise, problem, state }) {
      const attributes = exercise ? exerciseAttributes(exercise, state) : null;
      const wanted = JSON.stringify({ attributes, answers: Boolean(exercise?.answerKey), problem });
      if (wanted === shown) return;
      shown = wanted;
      box.hidden = !exercise && !problem;
      if (problem) refuse(`This link's exercise could not be read, so no worksheet is made: ${problem}.`);
      else if (!exercise) refuse('');
      else drawWorksheet(attributes, Boolean(exercise.answerKey));
    },
  };
}
