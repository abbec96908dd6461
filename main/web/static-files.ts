/** Serves the built renderer (out/renderer) with content types and a strict CSP. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/** The Content-Security-Policy of every page: same-origin scripts and connections only. */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self' ws: wss:; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Sends `urlPath` (the request's still percent-encoded path) from `root`, or index.html for
 * unknown paths; 400 for a path that does not decode (`/%`, overlong UTF-8), 403 outside
 * `root`, 404 when the build is missing. Never rejects and never throws: a read that fails
 * midway ends the response.
 */
export async function serveStatic(root: string, urlPath: string, res: ServerResponse, refused: (reason: string) => void = () => {}): Promise<void> {
  try {
    await send(root, urlPath, res, refused);
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Could not read the file.\n');
    else res.destroy();
  }
}

async function send(root: string, urlPath: string, res: ServerResponse, refused: (reason: string) => void): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    refused('Malformed path: not valid percent-encoded UTF-8');
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Malformed path: not valid percent-encoded UTF-8.\n');
    return;
  }
  const rel = decoded.replace(/^\/+/, '') || 'index.html';
  let file = path.resolve(root, rel);
  if (rel.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) {
    refused('the path leads outside the app\'s files');
    res.writeHead(403).end('Forbidden');
    return;
  }
  let info = await stat(file).catch(() => undefined);
  if (!info || info.isDirectory()) {
    file = path.join(root, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('The renderer is not built: run `yarn build`.');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': file.endsWith('index.html') ? 'no-store' : 'max-age=3600',
  });
  if (res.req?.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
