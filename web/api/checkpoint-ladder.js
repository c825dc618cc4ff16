// checkpoint-ladder.js: a bounded set of checkpoints along a run that only grows, so that any
// earlier step is at most a bounded number of steps past one of them. No DOM, no core: what it
// holds is the caller's (the training engine keeps trainer forks in it).
//
// The rule: a checkpoint is kept at every step that is a multiple of the spacing k (k = 1 at
// first, so step 0 is always kept). When keeping one would hold more than `cap`, k doubles and
// the checkpoints off the new spacing are released. So at most `cap` are held, they sit at
// 0, k, 2k, … up to the latest step, any step s is at most k − 1 steps past the checkpoint at
// ⌊s / k⌋ · k, and k is at most 2 · (latest step) / cap once it has doubled: replaying to any
// step of an N-step run takes fewer than max(1, 2N / cap) steps, while memory holds `cap`
// checkpoints however long the run.

/** Checkpoints the training engine keeps by default (each a trainer fork, about 90 kB by default). */
export const DEFAULT_CHECKPOINT_CAP = 64;

export class CheckpointLadder {
  #cap;
  #release;
  #held = new Map();  // step -> checkpoint, in increasing steps
  /** The steps between checkpoints: a power of two. */
  spacing = 1;

  /**
   * @param {number} cap the most checkpoints held at once (2 or more)
   * @param {{release?: (checkpoint: unknown, step: number) => void}} [options] called for each
   *   checkpoint let go (a doubling, or clear())
   */
  constructor(cap = DEFAULT_CHECKPOINT_CAP, { release = () => {} } = {}) {
    if (!Number.isInteger(cap) || cap < 2) throw new RangeError(`cap: must be a whole number of at least 2, got ${cap}`);
    this.#cap = cap;
    this.#release = release;
  }

  get cap() {
    return this.#cap;
  }

  /** How many checkpoints are held. */
  get size() {
    return this.#held.size;
  }

  /** The steps held, in increasing order. */
  steps() {
    return [...this.#held.keys()];
  }

  /**
   * Offers step `step` (each step once, in increasing order): when the rule keeps it,
   * `make()` gives the checkpoint. Returns whether it was kept.
   * @param {number} step
   * @param {() => unknown} make
   */
  offer(step, make) {
    if (step % this.spacing !== 0) return false;
    this.#held.set(step, make());
    while (this.#held.size > this.#cap) {
      this.spacing *= 2;
      for (const [held, checkpoint] of this.#held) {
        if (held % this.spacing === 0) continue;
        this.#held.delete(held);
        this.#release(checkpoint, held);
      }
    }
    return this.#held.has(step);
  }

  /** The checkpoint at the greatest held step at or before `step`: { step, checkpoint }, or null. */
  nearest(step) {
    let best = null;
    for (const [held, checkpoint] of this.#held) {
      if (held > step) break;
      best = { step: held, checkpoint };
    }
    return best;
  }

  /** Releases every checkpoint and starts again at spacing 1. */
  clear() {
    for (const [held, checkpoint] of this.#held) this.#release(checkpoint, held);
    this.#held.clear();
    this.spacing = 1;
  }
}
