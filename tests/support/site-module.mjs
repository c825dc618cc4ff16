// The assembled site the JavaScript suites test (build/site, or the folder ATTN_SITE_DIR names)
// and its public entry module, attention-explainer.js, loaded as a page would load it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const siteDir = resolve(process.env.ATTN_SITE_DIR ?? join(repoRoot, 'build', 'site'));
export const modulePath = join(siteDir, 'attention-explainer.js');

// The entry module, after checking that the site has been built.
export async function importExplainer() {
  assert.ok(existsSync(modulePath),
    `${modulePath} is missing: build the site with cmake --preset wasm && cmake --build --preset wasm`);
  return import(pathToFileURL(modulePath).href);
}

// createAttention(options) of the entry module.
export async function createSiteAttention(options) {
  const { createAttention } = await importExplainer();
  return createAttention(options);
}
