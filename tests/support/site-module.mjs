// The public entry module, web/attention-explainer.js, imported from the source tree as a page
// would load it (the wasm build must have written its generated glue to web/generated/).
// ATTN_SITE_DIR names an assembled production site instead (build/site): its bundled
// web/attention-explainer.js is then the module under test.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const webDir = process.env.ATTN_SITE_DIR
  ? join(resolve(process.env.ATTN_SITE_DIR), 'web') : join(repoRoot, 'web');
export const modulePath = join(webDir, 'attention-explainer.js');
const glue = join(webDir, 'generated', 'attention-core.js');

// The entry module, after checking that the wasm build has run.
export async function importExplainer() {
  assert.ok(existsSync(glue),
    `${glue} is missing: build the core with cmake --preset wasm && cmake --build --preset wasm`);
  return import(pathToFileURL(modulePath).href);
}

// createAttention(options) of the entry module.
export async function createSiteAttention(options) {
  const { createAttention } = await importExplainer();
  return createAttention(options);
}
