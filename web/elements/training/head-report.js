// What the head learned, in numbers the page computes from the core's attention weights on the
// held-out sentences: at the word before the last (the place, whose next word is the animal's
// sound), how much weight each head puts on the noun (the word before "that"), how far back
// that noun is, and in how many sentences it gets the row's largest weight. No DOM here.

import { counted } from '../../views/format.js';

/** The word the corpus's relative clause starts with: the noun is the word before it. */
export const CLAUSE_WORD = 'that';

/**
 * The positions the report looks at in one sentence: the query (the word before the last) and
 * the noun (the word before "that"), or null when the sentence has no such noun before the query.
 * @param {string[]} words
 */
export function reportPositions(words) {
  const query = words.length - 2;
  const clause = words.indexOf(CLAUSE_WORD);
  if (query < 1 || clause < 1 || clause - 1 >= query) return null;
  return { query, noun: clause - 1 };
}

/**
 * Folds one head's weights over sentences into the report's numbers.
 * @param {{words: string[], weights: number[][][]}[]} runs  per sentence, each head's weights
 *   (weights[h][row][column], rows summing to 1)
 * @returns {{sentences: number, counted: number, heads: {meanWeight: number, largest: number}[],
 *   distance: number | null}}
 *   counted: sentences with a noun; meanWeight: the mean over them of the query row's weight on
 *   the noun; largest: how many of them give the noun the row's largest weight; distance: the
 *   most common number of words from the noun to the query.
 */
export function foldHeadReport(runs) {
  const headCount = runs[0]?.weights.length ?? 0;
  const heads = Array.from({ length: headCount }, () => ({ total: 0, largest: 0 }));
  const distances = new Map();
  let counted = 0;
  for (const { words, weights } of runs) {
    const at = reportPositions(words);
    if (!at) continue;
    counted += 1;
    distances.set(at.query - at.noun, (distances.get(at.query - at.noun) ?? 0) + 1);
    weights.forEach((head, h) => {
      const row = head[at.query];
      heads[h].total += row[at.noun];
      // Largest: no other visible column strictly above the noun's weight.
      if (row.slice(0, at.query + 1).every((w, j) => j === at.noun || w < row[at.noun])) heads[h].largest += 1;
    });
  }
  let distance = null;
  let most = 0;
  for (const [d, n] of distances) if (n > most || (n === most && d < distance)) [distance, most] = [d, n];
  return {
    sentences: runs.length,
    counted,
    heads: heads.map(({ total, largest }) => ({ meanWeight: counted ? total / counted : Number.NaN, largest })),
    distance,
  };
}

/**
 * The report's sentence for one head, worded from the folded numbers ("at the word before the
 * sound, 91 % of the weight goes to the noun 6 words back, on average over 80 held-out
 * sentences; it is the largest weight in 47 of them").
 */
export function describeHead(report, h) {
  const { meanWeight, largest } = report.heads[h];
  if (report.counted === 0) return 'None of the held-out sentences has a noun before "that" to look for.';
  const percent = Math.round(meanWeight * 100);
  return `At the word before the sound, ${percent} % of the weight goes to the animal (typically ${counted(report.distance, 'word', 'words')} back), `
    + `on average over ${report.counted} held-out sentences; it is the row's largest weight in ${largest} of them.`;
}
