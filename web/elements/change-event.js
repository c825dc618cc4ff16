// The one event every element fires after it computes: `attention-change`, bubbling and
// composed (so it leaves a shadow root and reaches the page), with one shape of `detail`
// whichever element fired it:
//   result   what the element now shows, computed by the core (a trace, a multi-head layer, a
//            head_dim study, a sequel section's answer, the trained head's view), or null
//   problem  what was refused, worded for the author or reader, or null when nothing was
// An element may add its result under its own name as well (`trace`, `layer`, `study`, `view`),
// the names its earlier releases used, so listeners written for those keep working.

export const CHANGE_EVENT = 'attention-change';

/**
 * Fires `attention-change` on `target`.
 * @param {EventTarget} target
 * @param {{result?: unknown, problem?: string | null} & Record<string, unknown>} detail
 */
export function announceChange(target, { result = null, problem = null, ...named }) {
  target.dispatchEvent(new CustomEvent(CHANGE_EVENT, { bubbles: true, composed: true, detail: { result, problem, ...named } }));
}
