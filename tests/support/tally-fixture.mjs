// One tally of pencil mode, built the same way for the suites that read it (the tally's own,
// tests/web/practice-tally.test.mjs, and its words, tests/web/practice-view.test.mjs): every
// kind of event, in an order whose counts are worked out by hand below, not by the code.
import { emptyTally, withAnswer, withHint } from '../../web/practice/tally.js';

/** The events, in order: [blank id, 'hint'] or [blank id, verdict]. */
export const MIXED_EVENTS = Object.freeze([
  ['scores:0.0', 'right'],      // right at the first try
  ['scores:0.1', 'hint'],
  ['scores:0.1', 'right'],      // right, but after a hint: later
  ['weights:1.0', 'off'],
  ['weights:1.0', 'right'],     // right later
  ['weights:1.1', 'rounded'],   // rounded differently at the first try, not solved
  ['weights:1.1', 'hint'],
  ['weights:1.1', 'hint'],      // hints after the first answer
  ['out:1.0', 'off'],           // not solved
].map((event) => Object.freeze(event)));

/** What the tally of MIXED_EVENTS counts: five blanks tried, three solved, three hints. */
export const MIXED_SUMMARY = Object.freeze({
  attempted: 5, firstTryRight: 1, rightLater: 2, firstTryRounded: 1, unsolved: 2, hintsUsed: 3,
});

/** The tally of MIXED_EVENTS. */
export function mixedTally() {
  return MIXED_EVENTS.reduce((tally, [id, event]) => (event === 'hint' ? withHint(tally, id) : withAnswer(tally, id, event)), emptyTally());
}
