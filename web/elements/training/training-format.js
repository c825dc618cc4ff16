// How the training elements print numbers: losses to three decimals (enough to see a step's
// change, no more than the float32 model supports), weights to two.

/** A loss in nats, three decimals, or "not computed" for a missing one. */
export function formatLoss(value) {
  return Number.isFinite(value) ? value.toFixed(3) : 'not computed';
}

/** An attention weight (0 … 1), two decimals. */
export function formatWeight(value) {
  return Number.isFinite(value) ? value.toFixed(2) : '\u2014';
}
