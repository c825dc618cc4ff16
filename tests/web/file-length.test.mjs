// No script or stylesheet under site/ or web/ is over 400 lines: one responsibility per file,
// and a reader can hold a file in mind. HTML pages are prose and are not counted; neither is
// the compiler's output in web/generated/.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = 400;
const COUNTED = /\.(js|mjs|css)$/u;

function sourceFiles(folder) {
  return readdirSync(path.join(REPO, folder), { recursive: true })
    .map((name) => path.join(folder, name).split(path.sep).join('/'))
    .filter((name) => COUNTED.test(name) && !name.startsWith('web/generated/'));
}

describe('file length', () => {
  it(`keeps every script and stylesheet of site/ and web/ within ${LIMIT} lines`, () => {
    const files = [...sourceFiles('site'), ...sourceFiles('web')];
    assert.ok(files.includes('site/style.css') && files.includes('web/views/svg-export.js'), 'found the sources');
    const long = files
      .map((name) => ({ name, lines: readFileSync(path.join(REPO, name), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > LIMIT);
    assert.deepEqual(long.map(({ name, lines }) => `${name}: ${lines} lines`), []);
  });
});
