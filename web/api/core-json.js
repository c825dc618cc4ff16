// core-json.js: how values cross the JSON boundary between JS and the core, both ways.
//
// Into the core: JSON has no NaN or Infinity, so they go as the strings "NaN", "Infinity" and
// "-Infinity"; the core refuses them by name ("q[0][1]: must be a finite number, got \"NaN\"")
// instead of seeing a silent null.
//
// Out of the core: every non-finite number the core writes (a masked score's −∞, a running max
// before the first tile, a diverged loss) arrives as the tagged object
// {"non_finite": "-Infinity" | "Infinity" | "NaN"}, never as null, which keeps its one meaning,
// "absent". One rule (reviveNonFinite, a JSON.parse reviver) turns the tag back into the
// number, wherever it sits; no answer needs a loop of its own. A token spelt "NaN" stays a string.

const NON_FINITE = new Map([['-Infinity', -Infinity], ['Infinity', Infinity], ['NaN', NaN]]);
const TAG = '"non_finite"';

function nonFiniteAsString(key, value) {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
}

/** The JSON.parse reviver for the core's answers: {"non_finite": "-Infinity"} -> -Infinity. */
export function reviveNonFinite(key, value) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'non_finite' && NON_FINITE.has(value.non_finite)) {
      return NON_FINITE.get(value.non_finite);
    }
  }
  return value;
}

// reviveNonFinite applied to every object and array inside `value`, innermost first, as
// JSON.parse would with it as the reviver. One walk after a plain JSON.parse: a reviver is
// called for every number too, which made parsing a sixteen-token trace (116 000 characters)
// six times slower than the parse itself.
function reviveTree(value) {
  if (Array.isArray(value)) {
    for (let n = 0; n < value.length; n += 1) {
      if (value[n] !== null && typeof value[n] === 'object') value[n] = reviveTree(value[n]);
    }
    return value;
  }
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === null || typeof child !== 'object') continue;
    const revived = reviveTree(child);
    if (revived !== child) value[key] = revived;  // only a tag is replaced (so no setter runs)
  }
  return reviveNonFinite('', value);
}

/** Parses an answer of the core (the tags are looked for only when the text holds one). */
export function parseCoreJson(text) {
  const value = JSON.parse(text);
  return text.includes(TAG) && value !== null && typeof value === 'object' ? reviveTree(value) : value;
}

/** A request for the core as JSON text; `what` names it in the error when it cannot be. */
export function toJson(value, what) {
  let text;
  try {
    text = JSON.stringify(value === undefined ? null : value, nonFiniteAsString);
  } catch (error) {
    throw new Error(`${what}: cannot be read as JSON (${error.message})`);
  }
  return text === undefined ? 'null' : text;
}

/** A JsonResult of the bindings ({ ok, json } or { ok: false, error }) to its answer, or a throw. */
export function unwrap(result) {
  if (!result.ok) throw new Error(result.error);
  return parseCoreJson(result.json);
}
