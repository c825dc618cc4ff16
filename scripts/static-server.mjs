#!/usr/bin/env node
// A tiny static file server for the built site, with no dependencies.
//
// Why not `python -m http.server` or `npx serve`: the page loads ES modules and a
// .wasm file, which browsers only accept with the right MIME types, and it must also
// work inside a sandboxed iframe (opaque origin), which needs
// `Access-Control-Allow-Origin: *` on every file. The browser tests import
// startStaticServer() to get the same behaviour on a random port.
//
// CLI: node scripts/static-server.mjs [--root DIR | --source] [--port N] [--csp "POLICY"]
//   --root    directory to serve (default build/site, the production build)
//   --source  serve the source folders as they are: site/ at / and web/ at /web/, the layout
//             of the production build, so a page's ../web/ import lands on /web/ either way
//             (the wasm build must have written web/generated/ first)
//   --port  port on 127.0.0.1 (default 8000; 0 picks a free one)
//   --csp   Content-Security-Policy sent with HTML responses
// Prints "Serving <root> on http://127.0.0.1:<port>/" once listening.

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const HOST = '127.0.0.1';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

// Sent with every response, errors included: the sandboxed-iframe case needs CORS on
// each module and the .wasm, and nosniff makes a wrong MIME type fail loudly here
// rather than only on a stricter production host.
const COMMON_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
  // A development server: always revalidate so a rebuild is picked up on reload.
  'Cache-Control': 'no-cache',
};

function sendText(res, status, message, extraHeaders = {}) {
  const body = `${message}\n`;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

// Maps a URL path to a file path inside root; null when it would leave root, undefined
// when the path is not valid percent-encoding. The check is lexical on purpose: symbolic
// links the build placed inside root are served as they are.
function resolveInsideRoot(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return null;
  const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  // Re-check after decoding: "%2e%2e%2f" only becomes "../" here.
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
  return candidate;
}

// The folder a URL path is served from: a mount whose prefix it starts with, or the root.
function folderFor(pathname, root, mounts) {
  for (const [prefix, folder] of Object.entries(mounts)) {
    if (pathname.startsWith(prefix)) return [folder, pathname.slice(prefix.length - 1)];
  }
  return [root, pathname];
}

async function handle(req, res, root, csp, mounts) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    return;
  }
  const { pathname } = new URL(req.url, `http://${HOST}`);
  const [folder, rest] = folderFor(pathname, root, mounts);
  let filePath = resolveInsideRoot(folder, rest);
  if (filePath === undefined) {
    sendText(res, 400, 'Bad Request');
    return;
  }
  if (filePath === null) {
    sendText(res, 403, 'Forbidden');
    return;
  }

  let info = await stat(filePath).catch(() => null);
  if (info?.isDirectory()) {
    // Relative imports in a page resolve against its URL, so "/dir" must become "/dir/".
    if (!pathname.endsWith('/')) {
      sendText(res, 301, 'Moved Permanently', { Location: `${pathname}/` });
      return;
    }
    filePath = path.join(filePath, 'index.html');
    info = await stat(filePath).catch(() => null);
  }
  if (!info?.isFile()) {
    sendText(res, 404, 'Not Found');
    return;
  }

  const extension = path.extname(filePath).toLowerCase();
  const headers = {
    ...COMMON_HEADERS,
    'Content-Type': MIME_TYPES[extension] ?? 'application/octet-stream',
    'Content-Length': info.size,
  };
  if (csp && extension === '.html') headers['Content-Security-Policy'] = csp;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(filePath);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/**
 * Starts serving `root` on 127.0.0.1 (or, with `source`, the source folders site/ and web/).
 * @param {{root?: string, source?: boolean, port?: number, csp?: string}} options port 0 picks a free port
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>}>}
 */
export async function startStaticServer({ root = 'build/site', source = false, port = 0, csp } = {}) {
  const absoluteRoot = source ? path.join(repoRoot, 'site') : path.resolve(root);
  // The source tree also serves the one npm package a page imports (uPlot, via web/vendor/uplot.js).
  const mounts = source
    ? { '/web/': path.join(repoRoot, 'web'), '/node_modules/uplot/': path.join(repoRoot, 'node_modules', 'uplot') }
    : {};
  const rootInfo = await stat(absoluteRoot).catch(() => null);
  if (!rootInfo?.isDirectory()) {
    throw new Error(`static-server: root is not a directory: ${absoluteRoot}`);
  }
  const server = createServer((req, res) => {
    handle(req, res, absoluteRoot, csp, mounts).catch((error) => {
      if (!res.headersSent) sendText(res, 500, `Internal Server Error: ${error.message}`);
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  return {
    url: `http://${HOST}:${actualPort}/`,
    port: actualPort,
    root: absoluteRoot,
    source,
    close() {
      // Browsers keep connections alive; drop them so close() does not wait for them.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function parseArguments(argv) {
  const options = { root: 'build/site', source: false, port: 8000, csp: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--source') {
      options.source = true;
      continue;
    }
    if (!['--root', '--port', '--csp'].includes(flag)) {
      throw new Error(`unknown argument: ${flag} (expected --root DIR or --source, --port N, --csp POLICY)`);
    }
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i += 1;
    if (flag === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new Error(`--port must be an integer from 0 to 65535, got ${value}`);
      }
      options.port = port;
    } else {
      options[flag.slice(2)] = value;
    }
  }
  return options;
}

async function main() {
  let server;
  try {
    server = await startStaticServer(parseArguments(process.argv.slice(2)));
  } catch (error) {
    console.error(`static-server: ${error.message}`);
    process.exit(1);
  }
  console.log(`Serving ${server.root}${server.source ? ' (and web/ at /web/)' : ''} on ${server.url}`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) main();
