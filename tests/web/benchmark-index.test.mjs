// The index of benchmark results: the build writes it whether or not there are results, it
// names exactly the result documents present, and the benchmark page asks for nothing else
// (so a site without results makes no request that fails).

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { INDEX_FILE, writeBenchmarkIndex } from '../../bench/site-index.mjs';
import { loadResults } from '../../site/benchmark.js';

async function withDirectory(work) {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'attention-bench-index-'));
  try {
    return await work(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// A fetch over a folder that records every URL asked for; a missing file answers 404.
function folderFetch(directory, asked) {
  return async (url) => {
    const name = path.basename(new URL(url).pathname);
    asked.push(name);
    try {
      const text = await readFile(path.join(directory, name), 'utf8');
      return { ok: true, status: 200, json: async () => JSON.parse(text) };
    } catch {
      return { ok: false, status: 404, json: async () => { throw new Error('404'); } };
    }
  };
}

describe('benchmark-index.json', () => {
  it('is written with no runs when there are no results, and the page asks for nothing more', async () => {
    await withDirectory(async (directory) => {
      writeBenchmarkIndex(directory);
      const index = JSON.parse(await readFile(path.join(directory, INDEX_FILE), 'utf8'));
      assert.deepEqual(index.runs, []);
      const asked = [];
      const { runs, problems } = await loadResults(folderFetch(directory, asked), `file://${directory}/benchmark.js`);
      assert.deepEqual({ runs, problems }, { runs: [], problems: [] });
      assert.deepEqual(asked, [INDEX_FILE]);
    });
  });

  it('names the result documents present, and the page reads exactly those', async () => {
    await withDirectory(async (directory) => {
      const doc = { schema: 'attention-by-hand/benchmark@1', environment: { name: 'chromium' } };
      await writeFile(path.join(directory, 'benchmark-results-chromium.json'), JSON.stringify(doc));
      writeBenchmarkIndex(directory);
      const index = JSON.parse(await readFile(path.join(directory, INDEX_FILE), 'utf8'));
      assert.deepEqual(index.runs.map((run) => run.file), ['benchmark-results-chromium.json']);
      const asked = [];
      const { runs, problems } = await loadResults(folderFetch(directory, asked), `file://${directory}/benchmark.js`);
      assert.deepEqual(asked, [INDEX_FILE, 'benchmark-results-chromium.json']);
      assert.deepEqual(runs.map((run) => [run.where, run.results.environment.name]), [['Chromium', 'chromium']]);
      assert.deepEqual(problems, []);
    });
  });

  it('names a listed document that is not a result document, and refuses an index that is not one', async () => {
    await withDirectory(async (directory) => {
      await writeFile(path.join(directory, 'benchmark-results-node.json'), '{"schema": "something else"}');
      writeBenchmarkIndex(directory);
      const { runs, problems } = await loadResults(folderFetch(directory, []), `file://${directory}/benchmark.js`);
      assert.equal(runs.length, 0);
      assert.match(problems.join(), /benchmark-results-node\.json: is not a benchmark result document/);
      await writeFile(path.join(directory, INDEX_FILE), '{"runs": []}');
      await assert.rejects(loadResults(folderFetch(directory, []), `file://${directory}/benchmark.js`),
        /benchmark-index\.json is not an index of benchmark results/);
      await rm(path.join(directory, INDEX_FILE));
      await assert.rejects(loadResults(folderFetch(directory, []), `file://${directory}/benchmark.js`),
        /benchmark-index\.json answered 404/);
    });
  });
});
