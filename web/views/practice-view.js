// Pencil mode on screen, for the walkthrough page and the elements alike: an exercise's blanks
// laid on the tables a root shows (blank-cell.js), each answer checked by the practice modules
// (checkAnswer: read, then judged against the core's value at the printed precision), hints
// revealed a step at a time, the tally kept, and every verdict announced. The order of the
// blanks is the exercise's: after a right answer the focus moves on to the next open blank.

import { checkAnswer } from '../practice/exercise.js';
import { hintSteps } from '../practice/practice-cells.js';
import { emptyTally, isSolved, tallySummary, withAnswer, withHint } from '../practice/tally.js';
import { cellId } from '../state/practice-hash.js';
import { echoPlaces, printedAnswers, WORKING_PANELS } from '../practice/echo-places.js';
import { closeBlank, describeBlank, findCell, openBlank } from './blank-cell.js';
import { hideInText, maskInWorking, maskPrinted, registerOpenBlanks, restoreEchoes } from './blank-echoes.js';

/**
 * The tally in words: "Right at the first try: 3 of 8 · hints used: 2 · solved: 5 of 8".
 * @param {import('../practice/tally.js').Tally} tally
 * @param {number} total  the blanks of the exercise on screen
 */
export function tallyText(tally, total) {
  const sums = tallySummary(tally);
  const solved = sums.firstTryRight + sums.rightLater;
  return `Right at the first try: ${sums.firstTryRight} of ${total} \u00b7 hints used: ${sums.hintsUsed}`
    + ` \u00b7 solved: ${solved} of ${total}`
    + (sums.firstTryRounded > 0 ? ` \u00b7 rounded differently at the first try: ${sums.firstTryRounded}` : '');
}

const tokensOf = (answers) => answers?.trace?.tokens ?? answers?.flash?.tokens ?? [];

/**
 * @param {{announce: (text: string) => void, onTally?: (text: string) => void}} options
 *        announce: says a verdict or a hint to screen readers (an aria-live region's text);
 *        onTally: the tally's text after every change, and the number of blanks on screen
 */
export function practiceView({ announce, onTally = () => {} }) {
  let answers = null;
  let cells = [];
  let tally = emptyTally();
  let states = new Map();  // id -> {text, verdict, hints}
  let shown = [];          // [{cell, id, td, view}] of the blanks on screen, in order
  let root = null;
  let unregister = () => {};

  const stateOf = (id) => {
    if (!states.has(id)) states.set(id, { text: '', verdict: null, hints: 0 });
    return states.get(id);
  };
  const nameOf = (cell) => describeBlank(cell, tokensOf(answers));
  const report = () => onTally(tallyText(tally, shown.length), shown.length);

  function focusNext(after) {
    const start = shown.findIndex((entry) => entry.id === after);
    for (let n = 1; n <= shown.length; n += 1) {
      const entry = shown[(start + n) % shown.length];
      if (entry.view && !isSolved(tally, entry.id)) {
        entry.view.input.focus();
        return;
      }
    }
    // Every blank is done: the solved cell keeps the focus, as a cell of the table.
    const done = shown[start]?.td;
    if (done) {
      if (!done.hasAttribute('tabindex')) done.tabIndex = -1;
      done.focus();
    }
  }

  // While a blank is open, the other places printing its answer show a placeholder.
  function hideEchoes(entry) {
    entry.answers = printedAnswers(entry.cell, answers);
    entry.echoes = [];
    entry.panelEchoes = [];
    const places = [...echoPlaces(entry.cell, answers), WORKING_PANELS].flatMap((selector) => [...root.querySelectorAll(selector)]);
    for (const place of places) {
      if (place !== entry.td) for (const text of entry.answers) entry.echoes.push(...maskPrinted(place, text));
    }
  }

  function showEchoes(entry) {
    restoreEchoes([...entry.echoes ?? [], ...entry.panelEchoes ?? []]);
    entry.echoes = [];
    entry.panelEchoes = [];
  }

  const openEntries = () => shown.filter((entry) => entry.view);

  function check(entry, text) {
    const state = stateOf(entry.id);
    state.text = text;
    const name = nameOf(entry.cell);
    const result = checkAnswer(text, entry.cell, answers);
    if (!result.ok) {
      // A typing problem, never an attempt: the tally is left as it was.
      state.verdict = { kind: 'refused', text: result.message };
      entry.view.showVerdict(state.verdict);
      announce(`${name}: ${result.message}`);
      return;
    }
    tally = withAnswer(tally, entry.id, result.verdict);
    state.verdict = { kind: result.verdict, text: result.message };
    announce(`${name}: ${result.message}`);
    report();
    if (result.verdict === 'right') {
      closeBlank(entry.td, { solved: true });
      entry.view = null;
      showEchoes(entry);
      // Its answer is no longer hidden in the other blanks' hints.
      for (const other of openEntries()) showHints(other);
      focusNext(entry.id);
      return;
    }
    entry.view.showVerdict(state.verdict);
  }

  // The answers of the open blanks other than `entry`: its hints show them as hidden places.
  // Not its own answer, which its last step gives, even where another blank's prints the same.
  const othersOpen = (entry) => openEntries().filter((other) => other !== entry).flatMap((other) => other.answers ?? [])
    .filter((text) => !(entry.answers ?? []).includes(text));

  // Draws a blank's hints revealed so far, each number that is another open blank's answer hidden.
  function showHints(entry) {
    const state = stateOf(entry.id);
    const steps = state.hints > 0 ? hintSteps(entry.cell, answers) : [];
    entry.view.showHints(steps.slice(0, state.hints).map((step) => step.text), state.hints === 0 || state.hints < steps.length);
    maskInWorking(entry.view.hintList, othersOpen(entry));
  }

  function hint(entry) {
    const steps = hintSteps(entry.cell, answers);
    const state = stateOf(entry.id);
    if (state.hints >= steps.length) return;
    state.hints += 1;
    tally = withHint(tally, entry.id);
    showHints(entry);
    announce(`Hint ${state.hints} of ${steps.length} for ${nameOf(entry.cell)}: ${hideInText(steps[state.hints - 1].text, othersOpen(entry))}`);
    report();
  }

  function open(entry) {
    const state = stateOf(entry.id);
    const steps = state.hints > 0 ? hintSteps(entry.cell, answers) : [];
    entry.view = openBlank(entry.td, {
      id: entry.id,
      name: nameOf(entry.cell),
      text: state.text,
      verdict: state.verdict,
      hints: steps.slice(0, state.hints).map((step) => step.text),
      hintsLeft: state.hints === 0 || state.hints < steps.length,
      onCheck: (text) => check(entry, text),
      onHint: () => hint(entry),
    });
  }

  function clear() {
    for (const entry of shown) {
      showEchoes(entry);
      if (entry.td.isConnected) closeBlank(entry.td);
    }
    shown = [];
    unregister();
    unregister = () => {};
  }

  return {
    /**
     * Sets the exercise: the core's answers the blanks come from and the blanks, in order.
     * With `fresh`, what was typed, the verdicts and the tally start again (new numbers or
     * new blanks); without, they are kept (the same exercise laid on redrawn tables).
     * @param {{kind: string, index: (number|string)[]}[]} nextCells
     * @param {import('../practice/practice-cells.js').SourceAnswers} nextAnswers
     * @param {{fresh?: boolean}} [options]
     */
    set(nextCells, nextAnswers, { fresh = true } = {}) {
      cells = nextCells;
      answers = nextAnswers;
      if (fresh) {
        tally = emptyTally();
        states = new Map();
      }
    },
    /**
     * Lays the blanks on the tables in `where` (a document, shadow root or element); blanks no
     * table there shows are left out. Call again after the tables were redrawn.
     * @param {Document | ShadowRoot | Element} where
     * @returns {{shown: number, missing: string[]}}  the blanks laid, and the ids left out
     */
    lay(where) {
      clear();
      root = where;
      const missing = [];
      for (const cell of cells) {
        const id = cellId(cell);
        const td = findCell(root, cell, answers);
        if (!td) {
          missing.push(id);
          continue;
        }
        const entry = { cell, id, td, view: null };
        shown.push(entry);
        if (isSolved(tally, id)) closeBlank(td, { solved: true });
        else open(entry);
      }
      for (const entry of openEntries()) hideEchoes(entry);
      for (const entry of openEntries()) showHints(entry);
      if (openEntries().length > 0) {
        unregister = registerOpenBlanks({
          answersIn: (panelRoot) => openEntries().filter((entry) => entry.td.getRootNode() === panelRoot)
            .flatMap((entry) => entry.answers.map((text) => ({ id: entry.id, text }))),
          panelRecords: (id, records) => shown.find((entry) => entry.id === id)?.panelEchoes.push(...records),
        });
      }
      report();
      return { shown: shown.length, missing };
    },
    /** Takes every blank off the tables (their values shown again) and forgets the exercise. */
    clear() {
      clear();
      for (const td of root?.querySelectorAll?.('td.blank-solved') ?? []) closeBlank(td);
      cells = [];
      tally = emptyTally();
      states = new Map();
      report();
    },
    /** Whether every blank laid is still on its table as laid (nothing was redrawn since). */
    stillLaid() {
      return shown.every((entry) => entry.td.isConnected
        && (entry.view ? entry.td.dataset.blank === entry.id : entry.td.classList.contains('blank-solved'))
        && (entry.echoes ?? []).every((record) => (record.span ?? record.node).isConnected));
    },
    /** The input of the first open blank, for a round to start at. */
    firstOpen() {
      return shown.find((entry) => entry.view)?.view.input ?? null;
    },
    get tally() {
      return tally;
    },
    /** The blanks laid, in order. */
    get cells() {
      return shown.map((entry) => entry.cell);
    },
  };
}
