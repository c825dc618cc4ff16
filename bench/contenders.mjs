// Who runs in a benchmark: ours (every kernel and the scalar build) and the peers, as selected
// by --only. Shared by the Node runner and the browser page, which differ only in how they
// load the modules (`createAttention` and the peers' loaders are handed in).

import { isSelected } from './options.mjs';
import { ourContenders } from './ours.mjs';
import { plainJsContender, PLAIN_JS_ID } from './peers/plain-js.mjs';

/**
 * @param {(options?: object) => Promise<object>} createAttention
 * @param {[string, () => Promise<object[]>][]} peerLoaders  [id prefix, loader] per peer library;
 *   a loader that throws leaves that library out, with a note saying why
 * @param {{only?: string[], log: (line: string) => void}} options
 * @returns {Promise<{ours: object, peers: object[], contenders: object[], notes: string[]}>}
 */
export async function selectContenders(createAttention, peerLoaders, { only, log }) {
  const notes = [];
  const ours = await ourContenders(createAttention, {
    kernels: (name) => isSelected(only, `ours:${name}`) || isSelected(only, 'ours-default'),
    scalarBuild: isSelected(only, 'ours-scalar-build'),
  });
  notes.push(...ours.notes);
  const peers = [];
  for (const [prefix, load] of peerLoaders) {
    if (only && !only.some((o) => o.startsWith(prefix) || prefix.startsWith(o))) continue;
    try {
      peers.push(...(await load()).filter((c) => isSelected(only, c.id)));
    } catch (error) {
      notes.push(`${prefix} was not measured: ${error.message}`);
      log(`${prefix} was not measured: ${error.message}`);
    }
  }
  if (isSelected(only, PLAIN_JS_ID)) peers.push(plainJsContender());
  const contenders = [...ours.contenders.filter((c) => isSelected(only, c.id) || c.id === 'ours-default'), ...peers];
  return { ours, peers, contenders, notes };
}
