// Pencil mode on part one: the "Practise" switch, the rounds (fresh seeded numbers and their
// blanks in order), the tally, and the exercise's part of the link. The blanks themselves are
// web/views/practice-view.js's, the same as in the elements; the numbers are the core's.
//
// The exercise lives beside the page state: the link carries it in its own keys (practice,
// round, round_seed, level: web/state/practice-hash.js), read before the page's own. A round
// fixes the numbers, so a round's link carries no numbers of the page's; editing a number
// ends the round, and its blanks stay as a list of cells on the reader's numbers.

import { element } from '../web/views/page-slots.js';
import { practiceView } from '../web/views/practice-view.js';
import { visuallyHidden } from '../web/views/render-tables.js';
import { defaultBlankItems, exerciseBlanks } from '../web/practice/exercise.js';
import { DEFAULT_LEVEL, LEVEL_NAMES, ROUNDS, roundInputs } from '../web/practice/rounds.js';
import { cellId, formatBlankList, formatPracticeHash } from '../web/state/practice-hash.js';
import { WORKSHEET_KINDS } from '../web/practice/worksheet.js';
import { sameInput, withSettings } from '../web/state/page-state.js';
import { drawAll } from '../web/elements/draw-when-near.js';

const LEVEL_LABELS = Object.freeze({ easy: 'easy (one decimal)', hard: 'hard (two decimals)' });
const NO_ROUND = '';

function labelled(doc, text, control) {
  const label = element(doc, 'label', 'practice-choice');
  label.append(element(doc, 'span', undefined, `${text} `), control);
  return label;
}

function select(doc, className, options) {
  const node = element(doc, 'select', className);
  for (const [value, text] of options) {
    const option = element(doc, 'option', undefined, text);
    option.value = value;
    node.append(option);
  }
  return node;
}

// The kinds whose table works one row (the softmax table of a row, the mix table of a row and
// its footer, out): the page shows the last token's row, and pencil mode the others it needs.
const ROW_TABLE_KINDS = new Set(['exponentials', 'totals', 'mix', 'out']);

/** The rows, in order, whose softmax or mix table holds a blank of `cells`. */
export function rowsWithBlanks(cells) {
  const rows = cells.filter((cell) => ROW_TABLE_KINDS.has(cell.kind)).map((cell) => Number(cell.index[0]));
  return [...new Set(rows)].sort((a, b) => a - b);
}

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 * @param {{showRows: (trace: object, rows: number[]) => void}} tables  draws the softmax and mix
 *        tables of the rows other than the last token's that the blanks need
 */
export function createPractice(doc, session, { showRows }) {
  const panel = element(doc, 'div', 'practice-panel');
  const toggle = element(doc, 'input', 'practice-toggle');
  toggle.type = 'checkbox';
  toggle.id = 'practice-toggle';
  const switchLabel = element(doc, 'label', 'practice-switch');
  switchLabel.htmlFor = toggle.id;
  switchLabel.append(toggle, element(doc, 'span', undefined, 'Practise: work cells out by hand'));
  const about = element(doc, 'p', 'practice-about',
    'Chosen cells of the steps below become blanks: type the number, then Enter or Check. ' +
    'Hint shows the working one step at a time.');
  const round = select(doc, 'practice-round', [[NO_ROUND, 'Cells of this example'], ...ROUNDS.map((r) => [r.name, r.title])]);
  const level = select(doc, 'practice-level', LEVEL_NAMES.map((name) => [name, LEVEL_LABELS[name] ?? name]));
  const fresh = element(doc, 'button', 'practice-new', 'New numbers');
  fresh.type = 'button';
  const controls = element(doc, 'div', 'control-row practice-rounds');
  controls.append(labelled(doc, 'Round', round), labelled(doc, 'Level', level), fresh);
  // Not a live region: each verdict is announced once, by the announcer below.
  const tally = element(doc, 'p', 'practice-tally');
  const message = element(doc, 'p', 'control-message practice-message');
  message.setAttribute('aria-live', 'polite');
  message.hidden = true;
  const announcer = visuallyHidden(doc, '');
  announcer.classList.add('practice-announcer');
  announcer.setAttribute('aria-live', 'polite');
  panel.append(switchLabel, about, controls, tally, message, announcer);

  const view = practiceView({
    announce: (text) => { announcer.textContent = text; },
    onTally: (text) => { tally.textContent = text; },
  });
  const say = (text) => {
    message.textContent = text ?? '';
    message.hidden = !text;
  };

  // What the exercise is: off; on with a list of cells; or a round (its seed and level, and a
  // list only when the link named one).
  let exercise = { on: false };
  let laid = null;  // {key} of the cells last laid: the same cells on the same numbers keep the tally
  let onChange = () => {};

  const roundState = (settings, base) => withSettings(base, {
    ...roundInputs(session.attention, { seed: settings.seed, level: settings.level }),
  });

  function sync() {
    toggle.checked = exercise.on;
    about.hidden = !exercise.on;
    round.value = exercise.round ?? NO_ROUND;
    level.value = exercise.level ?? DEFAULT_LEVEL;
    level.disabled = exercise.round === undefined;
    fresh.disabled = exercise.round === undefined;
    tally.hidden = !exercise.on;
  }

  // Proposes a round's numbers; the change event lays its blanks.
  function startRound(settings) {
    exercise = { ...settings, on: true };
    sync();
    const problem = session.propose(roundState(exercise, session.state), { origin: 'practice' });
    if (problem) say(problem);
    else view.firstOpen()?.focus();
  }

  toggle.addEventListener('change', () => {
    exercise = toggle.checked ? { on: true } : { on: false };
    say(null);
    sync();
    render(session.trace, { redrawn: false });
    onChange();
  });
  round.addEventListener('change', () => {
    if (round.value === NO_ROUND) {
      exercise = { on: true };
      sync();
      render(session.trace, { redrawn: false });
      onChange();
      return;
    }
    startRound({ round: round.value, seed: exercise.seed ?? session.state.seed, level: level.value });
  });
  // Another level or new numbers keep the round and a teacher's list of blanks, if it had one.
  level.addEventListener('change', () => startRound({ ...exercise, level: level.value }));
  fresh.addEventListener('click', () => startRound({ ...exercise, seed: (exercise.seed + 1) % 2 ** 32 }));

  // Lays the exercise on the tables. `redrawn`: the numbers changed (the tables were drawn
  // again), so the blanks are laid afresh and the tally starts again.
  function render(trace, { redrawn = true } = {}) {
    if (!trace) return;
    if (!exercise.on) {
      view.clear();
      showRows(trace, []);
      laid = null;
      return;
    }
    // Blanks are laid on the tables as they show this trace, far off screen too.
    drawAll(doc);
    // A round whose numbers the reader changed is over: its blanks stay, as a list (the link
    // written for the change says so).
    if (exercise.round !== undefined && !sameInput(session.state, roundState(exercise, session.state))) {
      const cells = exercise.blanks ?? laid?.cells ?? [];
      exercise = { on: true, blanks: cells };
      sync();
    }
    if (exercise.blanks === undefined && exercise.round === undefined) exercise.blanks = defaultBlankItems(trace);
    let cells;
    let problem = null;
    try {
      const foreign = (exercise.blanks ?? []).find((item) => !WORKSHEET_KINDS.includes(item.kind));
      if (foreign) {
        throw new RangeError(`${formatBlankList([foreign])} is not a cell of part one (its kinds are ${WORKSHEET_KINDS.join(', ')})`);
      }
      cells = exerciseBlanks({ blanks: exercise.blanks, round: exercise.round }, { trace });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      problem = `The practice cells could not be laid: ${error.message}.`;
      cells = [];
    }
    const key = cells.map(cellId).join(',');
    if (!redrawn && laid?.key === key) return;
    say(problem);
    showRows(trace, rowsWithBlanks(cells));
    view.set(cells, { trace }, { fresh: redrawn || laid?.key !== key });
    const { missing } = view.lay(doc);
    laid = { key, cells };
    // Every blank asked for is answerable, or the exercise is refused: never a part of it.
    if (missing.length > 0) {
      view.clear();
      showRows(trace, []);
      say(`The practice cells could not be laid: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} ` +
        'in no table of this page, so no cell is left blank.');
    }
  }

  const exerciseSettings = () => {
    const { blanks, round: name, seed, level: chosen, answerKey } = exercise;
    return { blanks, round: name, seed, level: chosen, answerKey };
  };

  sync();
  return {
    element: panel,
    render,
    /** Called when the reader changes the exercise (the page writes its link then). */
    set onChange(listener) {
      onChange = listener;
    },
    /**
     * Takes a link's exercise (parsePracticeHash's answer). Returns the state to show when the
     * link names a round (its numbers), else null; a refused exercise is switched off.
     * @param {{settings: object, problem: string | null}} link
     * @param {object} base  the state the link's own keys describe
     */
    fromLink({ settings, problem }, base) {
      if (problem || (settings.blanks === undefined && settings.round === undefined)) {
        exercise = { on: false };
        sync();
        return null;
      }
      exercise = { on: true, ...settings };
      if (exercise.round !== undefined) {
        exercise.seed ??= 1;
        exercise.level ??= DEFAULT_LEVEL;
      }
      laid = null;
      sync();
      return exercise.round === undefined ? null : roundState(exercise, base);
    },
    /** The exercise's part of the link ("" when off). */
    hashPart() {
      return exercise.on ? formatPracticeHash(exerciseSettings()) : '';
    },
    /** The exercise on the page (its blanks, round, seed, level and answer key), or null when off. */
    get exercise() {
      return exercise.on ? exerciseSettings() : null;
    },
    /** Whether a round fixes the numbers (the link then carries none of the page's). */
    get inRound() {
      return exercise.on && exercise.round !== undefined;
    },
  };
}
