// The names of the core's mask and scale variants and the default layer shape, for the modules
// that must know them before the core has loaded (the hash parser, the tracer's argument check,
// the elements' attribute readers). The core defines them (core/include/attention/reference/
// vocabulary.h) and attention.vocabulary() reports them; this is the one copy in JS, and
// tests/web/variant-names.test.mjs fails the moment it differs from the core's. Everything else
// (labels, descriptions, what a mask writes) is read from attention.vocabulary() at run time.

/** The mask variants, in the order of the core's indices (tracerRun takes these). */
export const MASK_NAMES = Object.freeze(['causal', 'none', 'causal_zero']);
/** The scale variants, in the order of the core's indices. */
export const SCALE_NAMES = Object.freeze(['sqrt_d', 'd', 'none']);
/** What run() and tracer() take when mask or scale is left out: the article's attention. */
export const DEFAULT_VARIANT = Object.freeze({ mask: 'causal', scale: 'sqrt_d' });
/** A layer request's shape when it leaves d_model, n_heads or seed out. */
export const LAYER_DEFAULTS = Object.freeze({ d_model: 16, n_heads: 4, seed: 1 });
