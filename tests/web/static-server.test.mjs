// The development server must give browsers what an ES-module + wasm page needs
// (MIME types, CORS for sandboxed iframes, CSP on pages) and must never serve a file
// outside its root.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startStaticServer } from '../../scripts/static-server.mjs';

const serverScript = fileURLToPath(new URL('../../scripts/static-server.mjs', import.meta.url));
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

// fetch() normalises "..", so traversal attempts go through node:http, which sends the
// path exactly as written.
function rawRequest(url, requestPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request(url, { path: requestPath, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static server', () => {
  let parent;
  let server;

  before(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'static-server-test-'));
    const root = path.join(parent, 'site');
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await writeFile(path.join(parent, 'secret.txt'), 'outside the root');
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>home</title>');
    await writeFile(path.join(root, 'docs', 'index.html'), '<!doctype html><title>docs</title>');
    await writeFile(path.join(root, 'module.js'), 'export const answer = 42;\n');
    await writeFile(path.join(root, 'module.mjs'), 'export {};\n');
    await writeFile(path.join(root, 'style.css'), 'body {}\n');
    await writeFile(path.join(root, 'data.json'), '{"a":1}\n');
    await writeFile(path.join(root, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(root, 'core.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    server = await startStaticServer({ root, port: 0, csp: CSP });
  });

  after(async () => {
    await server?.close();
    await rm(parent, { recursive: true, force: true });
  });

  test('listens on 127.0.0.1 and reports its URL', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.ok(server.port > 0);
  });

  const expectedTypes = {
    'module.js': 'text/javascript; charset=utf-8',
    'module.mjs': 'text/javascript; charset=utf-8',
    'style.css': 'text/css; charset=utf-8',
    'data.json': 'application/json; charset=utf-8',
    'icon.svg': 'image/svg+xml',
    'core.wasm': 'application/wasm',
    'index.html': 'text/html; charset=utf-8',
  };
  for (const [file, type] of Object.entries(expectedTypes)) {
    test(`serves ${file} as ${type} with CORS and nosniff`, async () => {
      const response = await fetch(new URL(file, server.url));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), type);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });
  }

  test('serves the exact bytes of a wasm module', async () => {
    const response = await fetch(new URL('core.wasm', server.url));
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual([...bytes], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    assert.ok(WebAssembly.validate(bytes));
  });

  test('sends the Content-Security-Policy with HTML only', async () => {
    const page = await fetch(new URL('index.html', server.url));
    assert.equal(page.headers.get('content-security-policy'), CSP);
    const script = await fetch(new URL('module.js', server.url));
    assert.equal(script.headers.get('content-security-policy'), null);
  });

  test('serves index.html for / and for a directory with a trailing slash', async () => {
    const home = await fetch(server.url);
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<title>home<\/title>/);
    const docs = await fetch(new URL('docs/', server.url));
    assert.match(await docs.text(), /<title>docs<\/title>/);
  });

  test('redirects a directory without a trailing slash so relative imports resolve', async () => {
    const response = await fetch(new URL('docs', server.url), { redirect: 'manual' });
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/docs/');
  });

  test('answers 404 for a missing file, with CORS so the page can read the error', async () => {
    const response = await fetch(new URL('missing.js', server.url));
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
  });

  for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/docs/..%2f..%2fsecret.txt', '/%2e%2e%5csecret.txt']) {
    test(`never serves a file outside the root: ${attempt}`, async () => {
      const response = await rawRequest(server.url, attempt);
      assert.ok([403, 404].includes(response.status), `status ${response.status}`);
      assert.doesNotMatch(response.body, /outside the root/);
    });
  }

  test('rejects malformed percent-encoding with 400', async () => {
    const response = await rawRequest(server.url, '/%E0%A4%A');
    assert.equal(response.status, 400);
  });

  test('answers HEAD with headers and no body', async () => {
    const response = await rawRequest(server.url, '/core.wasm', 'HEAD');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/wasm');
    assert.equal(response.headers['content-length'], '8');
    assert.equal(response.body, '');
  });

  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
    test(`refuses ${method} with 405 and an Allow header`, async () => {
      const response = await rawRequest(server.url, '/index.html', method);
      assert.equal(response.status, 405);
      assert.equal(response.headers.allow, 'GET, HEAD');
    });
  }
});

test('startStaticServer rejects a root that is not a directory', async () => {
  await assert.rejects(
    startStaticServer({ root: path.join(tmpdir(), 'no-such-directory-for-static-server'), port: 0 }),
    /root is not a directory/,
  );
});

test('the command line prints the URL it serves and serves files there', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'static-server-cli-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>cli</title>');
  const child = spawn(process.execPath, [serverScript, '--root', root, '--port', '0', '--csp', CSP], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => child.kill());
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/^Serving (.+) on (http:\/\/127\.0\.0\.1:\d+\/)$/m);
      if (match) resolve(match[2]);
    });
    child.on('exit', (code) => reject(new Error(`server exited early with ${code}: ${output}`)));
  });
  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-security-policy'), CSP);
  assert.match(await response.text(), /<title>cli<\/title>/);
});

test('the command line refuses an unknown argument', async () => {
  const child = spawn(process.execPath, [serverScript, '--bogus'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.match(stderr, /unknown argument: --bogus/);
});
