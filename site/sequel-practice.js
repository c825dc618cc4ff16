// Pencil mode on the sequel page: a "Practise" switch above the FlashAttention tile and above
// the bill sets the element's `practice` attribute (empty: the documented default blanks, the
// last tile's running figures and the bill's four lines); the elements lay the blanks, judge
// the answers and keep their own tally. The link keeps the exercise as part one's does:
// parsePracticeHash takes the exercise's keys out before the page's own parser reads the rest,
// and the page writes them after its own keys, the cells of both elements in one list.

import { defaultBillItems, defaultFlashItems } from '../web/practice/exercise.js';
import { practiceKind } from '../web/practice/practice-cells.js';
import { formatBlankList, formatPracticeHash, parseBlankList, parsePracticeHash } from '../web/state/practice-hash.js';

/** The sections with a switch: their element, their checkbox, and the blanks' source. */
export const PRACTICE_SECTIONS = Object.freeze({
  flash: { element: 'flash-tiles', toggle: 'flash-practice', defaults: (element) => (element.result ? defaultFlashItems(element.result) : null) },
  bill: { element: 'kv-bill', toggle: 'bill-practice', defaults: () => defaultBillItems() },
});

/**
 * Takes the exercise out of the sequel's hash: the blanks of each section, the rest of the
 * hash for parseSequelHash, and what could not be used, as the link's other problems are said.
 * @param {string} hash
 * @returns {{lists: Record<string, object[]>, rest: string, warnings: string[]}}
 */
export function readSequelPractice(hash) {
  const { settings, problem, rest } = parsePracticeHash(hash);
  if (problem) return { lists: {}, rest, warnings: [problem] };
  if (settings.round !== undefined || settings.answerKey !== undefined) {
    const key = settings.round !== undefined ? 'round' : 'answers';
    return { lists: {}, rest, warnings: [`${key}: rounds and answer keys are part one\u2019s; this page practises the tile and the bill`] };
  }
  const warnings = [];
  const lists = {};
  for (const item of settings.blanks ?? []) {
    const source = practiceKind(item.kind)?.source;
    if (!Object.hasOwn(PRACTICE_SECTIONS, source)) {
      warnings.push(`practice: ${item.kind} is a cell of part one; this page practises flash-max, flash-rescale, flash-sum and bill`);
      return { lists: {}, rest, warnings };
    }
    (lists[source] ??= []).push(item);
  }
  return { lists, rest, warnings };
}

/**
 * @param {Document} doc
 * @param {() => void} onChange  the reader switched a section on or off (the page writes its link)
 */
export function createSequelPractice(doc, onChange) {
  const byId = (id) => doc.getElementById(id);
  for (const { element, toggle } of Object.values(PRACTICE_SECTIONS)) {
    byId(toggle).addEventListener('change', (event) => {
      if (event.target.checked) byId(element).setAttribute('practice', '');
      else byId(element).removeAttribute('practice');
      onChange();
    });
  }

  return {
    /** Sets each section's blanks as a link names them (none: switched off). */
    apply(lists) {
      for (const [section, { element, toggle }] of Object.entries(PRACTICE_SECTIONS)) {
        const items = lists[section];
        byId(toggle).checked = items !== undefined;
        if (items === undefined) byId(element).removeAttribute('practice');
        else byId(element).setAttribute('practice', formatBlankList(items));
      }
    },
    /** The exercise's part of the link: the blanks of every section switched on ("" when none). */
    hashPart() {
      const blanks = [];
      for (const { element, defaults } of Object.values(PRACTICE_SECTIONS)) {
        const attribute = byId(element).getAttribute('practice');
        if (attribute === null) continue;
        try {
          blanks.push(...(attribute.trim() === '' ? defaults(byId(element)) ?? [] : parseBlankList(attribute)));
        } catch {
          // A list the element refuses is said in its own bar; the link leaves it out.
        }
      }
      return blanks.length === 0 ? '' : formatPracticeHash({ blanks });
    },
  };
}
