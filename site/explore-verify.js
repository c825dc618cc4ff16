// "Verified on screen": with the article's example the page recomputes every number the
// article prints and says how many match; once the reader has changed the example it says the
// numbers are the reader's own, which no article can vouch for.

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 */
export function createVerify(doc, session) {
  const status = doc.getElementById('verify-status');
  let wasArticle = null;

  function showChecks() {
    const checks = session.attention.checkArticle();
    const drifted = checks.filter((check) => !check.matches);
    status.dataset.verdict = drifted.length === 0 ? 'verified' : 'drifted';
    status.textContent = drifted.length === 0
      ? `Checked just now: all ${checks.length} numbers the article prints match what the core computes here.`
      : `Checked just now: ${checks.length - drifted.length} of the ${checks.length} numbers the article prints ` +
        `match; ${drifted[0].what} prints ${drifted[0].printed} but computes ${drifted[0].computed}.`;
  }

  return {
    /** Says whether the numbers on screen are the article's (checked) or the reader's own. */
    sync() {
      const isArticle = session.isArticle;
      if (isArticle === wasArticle) return;
      wasArticle = isArticle;
      status.hidden = false;
      if (isArticle) {
        showChecks();
      } else {
        status.dataset.verdict = 'own';
        status.textContent = 'These numbers are your own: the example differs from the article\u2019s, so there is ' +
          'nothing of the article\u2019s to check them against. \u201cReset to the article\u201d brings its numbers back.';
      }
    },
  };
}
