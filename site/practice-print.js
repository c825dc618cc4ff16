// Part one's printed exercise. When the link's hash names a pencil-mode exercise (the keys of
// web/state/practice-hash.js), this shows the box with "Print worksheet" and "Print answer key",
// fills an <attention-worksheet> with the exercise (a round's keys, or the blank list with the
// walkthrough's inputs from the rest of the hash), and marks the page so that its print sheet
// prints the worksheet instead of the walkthrough. A malformed exercise is refused with the
// module's message and no worksheet. The element computes and draws; this only wires the page.

import { AttentionWorksheetElement, definePracticeElements } from '../web/attention-practice-elements.js';
import { WORKSHEET_EVENT } from '../web/elements/practice/worksheet-element.js';
import { formatTokens } from '../web/elements/element-config.js';
import { parseStateHash } from '../web/state/page-state.js';
import { PRACTICE_KEYS, formatBlankList, parsePracticeHash } from '../web/state/practice-hash.js';

const page = document;
const box = page.querySelector('[data-practice-print]');
const problemBox = box.querySelector('.practice-print-problem');
const controls = box.querySelector('.practice-print-controls');
const showButton = box.querySelector('[data-show-worksheet]');
let worksheet = null;
let linkAnswers = false;  // what the link asks for: the mode to return to after printing

definePracticeElements();

const namesExercise = (hash) => hash.replace(/^#/u, '').split('&')
  .some((part) => PRACTICE_KEYS.includes(part.split('=')[0]));

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
  delete page.documentElement.dataset.printWorksheet;
}

function refuse(text) {
  say(text);
  dropWorksheet();
}

// The element's attributes for the exercise: the round's, or the blanks and the walkthrough's
// inputs that the rest of the hash gives (the article's example for any it does not).
function exerciseAttributes(settings, rest) {
  const attributes = {};
  if (settings.blanks !== undefined) attributes.practice = formatBlankList(settings.blanks);
  if (settings.round !== undefined) {
    attributes.round = settings.round;
    if (settings.seed !== undefined) attributes['round-seed'] = String(settings.seed);
    if (settings.level !== undefined) attributes.level = settings.level;
    return { attributes };
  }
  const state = parseStateHash(rest);
  if (state.problem) return { problem: `The link's inputs could not be read, so no worksheet is made: ${state.problem}.` };
  const { tokens, q, k, v, mask, scale } = state.settings;
  if (tokens !== undefined) attributes.tokens = formatTokens(tokens);
  for (const [name, matrix] of Object.entries({ q, k, v })) if (matrix !== undefined) attributes[name] = JSON.stringify(matrix);
  if (mask !== undefined) attributes.mask = mask;
  if (scale !== undefined) attributes.scale = scale;
  return { attributes };
}

let shownHash = null;  // the hash the box was last drawn for

function showExercise() {
  const hash = page.location.hash;
  shownHash = hash;
  if (!namesExercise(hash)) {
    box.hidden = true;
    refuse('');
    return;
  }
  box.hidden = false;
  const { settings, problem, rest } = parsePracticeHash(hash);
  if (problem) {
    refuse(`This link's exercise could not be read, so no worksheet is made: ${problem}.`);
    return;
  }
  const { attributes, problem: inputProblem } = exerciseAttributes(settings, rest);
  if (inputProblem) {
    refuse(inputProblem);
    return;
  }
  linkAnswers = Boolean(settings.answerKey);
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
    page.documentElement.dataset.printWorksheet = event.detail.answers ? 'answers' : 'worksheet';
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
  if (worksheet?.layout) page.defaultView.print();
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
page.defaultView.addEventListener('afterprint', () => worksheet?.toggleAttribute('answers', linkAnswers));
// The page writes its own changes into the hash with the History API, which fires no event:
// after a reader's click, change or edit (and before printing) the hash is read again, so the
// box and the paper follow the exercise and the inputs the link now names.
const followHash = () => {
  if (page.location.hash !== shownHash) showExercise();
};
let followQueued = false;
for (const type of ['click', 'change', 'input']) {
  page.addEventListener(type, () => {
    if (followQueued) return;
    followQueued = true;
    page.defaultView.requestAnimationFrame(() => {
      followQueued = false;
      followHash();
    });
  });
}
page.defaultView.addEventListener('beforeprint', followHash);
page.defaultView.addEventListener('hashchange', followHash);
page.defaultView.addEventListener('popstate', followHash);
showExercise();
