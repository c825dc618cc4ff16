// The tally of pencil mode: per blank, the verdicts its answers got and the hint steps revealed;
// in sum, how many blanks were right at the first try. A pure state object: every change
// returns a new tally, so the page can keep it in its state and an undo is the old value.
//
// Only judged answers count: a refusal (readAnswer's "not a number") is a typing problem and
// never an attempt. A blank is right at the first try when its first judged answer is right and
// no hint step was revealed before it; "rounded" is not "right", and it is counted apart.

/**
 * @typedef {object} CellTally
 * @property {('right'|'rounded'|'off')[]} verdicts  in the order given
 * @property {number} hints             hint steps revealed
 * @property {number} hintsBeforeFirst  hint steps revealed before the first judged answer
 *
 * @typedef {{cells: Readonly<Record<string, CellTally>>}} Tally
 */

const VERDICTS = Object.freeze(['right', 'rounded', 'off']);
const EMPTY_CELL = Object.freeze({ verdicts: Object.freeze([]), hints: 0, hintsBeforeFirst: 0 });

/** A tally with nothing answered. */
export function emptyTally() {
  return Object.freeze({ cells: Object.freeze({}) });
}

function checkId(id) {
  if (typeof id !== 'string' || id === '') throw new RangeError(`a blank's id must be a non-empty string, got ${id}`);
}

function withCell(tally, id, cell) {
  return Object.freeze({ cells: Object.freeze({ ...tally.cells, [id]: Object.freeze(cell) }) });
}

/**
 * The tally with one judged answer of blank `id` added.
 * @param {Tally} tally
 * @param {string} id       the blank's name (cellId in web/state/practice-hash.js)
 * @param {'right'|'rounded'|'off'} verdict  judgeAnswer's verdict
 * @returns {Tally}
 */
export function withAnswer(tally, id, verdict) {
  checkId(id);
  if (!VERDICTS.includes(verdict)) throw new RangeError(`verdict must be one of ${VERDICTS.join(', ')}, got ${verdict}`);
  const cell = tally.cells[id] ?? EMPTY_CELL;
  return withCell(tally, id, { ...cell, verdicts: Object.freeze([...cell.verdicts, verdict]) });
}

/**
 * The tally with one more hint step of blank `id` revealed.
 * @param {Tally} tally
 * @param {string} id
 * @returns {Tally}
 */
export function withHint(tally, id) {
  checkId(id);
  const cell = tally.cells[id] ?? EMPTY_CELL;
  return withCell(tally, id, {
    ...cell,
    hints: cell.hints + 1,
    hintsBeforeFirst: cell.verdicts.length === 0 ? cell.hintsBeforeFirst + 1 : cell.hintsBeforeFirst,
  });
}

/** Whether blank `id` has been answered right (at any try). */
export const isSolved = (tally, id) => tally.cells[id]?.verdicts.includes('right') ?? false;

/**
 * The sums a page shows: blanks attempted, right at the first try (without a hint), right
 * after more tries or a hint, rounded differently at the first try, still not right, and the
 * hint steps revealed in all.
 * @param {Tally} tally
 */
export function tallySummary(tally) {
  const summary = { attempted: 0, firstTryRight: 0, rightLater: 0, firstTryRounded: 0, unsolved: 0, hintsUsed: 0 };
  for (const cell of Object.values(tally.cells)) {
    summary.hintsUsed += cell.hints;
    if (cell.verdicts.length === 0) continue;
    summary.attempted += 1;
    const first = cell.verdicts[0];
    if (first === 'right' && cell.hintsBeforeFirst === 0) summary.firstTryRight += 1;
    else if (cell.verdicts.includes('right')) summary.rightLater += 1;
    else summary.unsolved += 1;
    if (first === 'rounded') summary.firstTryRounded += 1;
  }
  return summary;
}
