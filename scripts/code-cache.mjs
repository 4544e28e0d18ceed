// Copied to dist/app/ by scripts/bundle.mjs. On Node 20, which has no compile cache,
// dist/app/main.js runs the service's CommonJS bundle (service.cjs) through node:vm with a V8 code
// cache (docs/adr/0009-a-v8-code-cache-on-node-20.md): V8 then reads the code it compiled at an
// earlier start instead of parsing and compiling the bundle again.
// The cache, `<bundle>.cache` beside the bundle, is written when there was no usable one, once
// the service listens (it publishes on the diagnostics channel below, before it changes a V8 flag:
// V8 refuses a cache made under other flags), not on the way there. It starts with a header (this
// Node's version and architecture, CRC-32s of the bundle and of the cache's bytes, since V8 itself
// checks only the source's length): a cache with another is ignored. A cache that cannot be read
// or written (dist/ read-only, as in the Docker image) only makes the start slower.
// NODE_DEBUG=codecache tells what became of it.
import diagnostics from 'node:diagnostics_channel';
import { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { debuglog } from 'node:util';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';

/** What serve.ts publishes on once the service listens. */
const LISTENING_CHANNEL = 'gpu-cost-api:listening';
const debug = debuglog('codecache');
const MAGIC = 'gpu-cost-api code cache 1';

/** The header that a cache for this bundle text on this Node must start with. */
const headerFor = (source, data) => `${MAGIC} ${process.version} ${process.arch} ${crc32(source)} ${crc32(data)}\n`;

function readCache(file, source) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  const data = bytes.subarray(end + 1);
  return bytes.subarray(0, end + 1).toString('latin1') === headerFor(source, data) ? data : undefined;
}

function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function writeCache(file, source, script) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const started = performance.now();
    const data = script.createCachedData();
    writeFileSync(temporary, Buffer.concat([Buffer.from(headerFor(source, data), 'latin1'), data]));
    // Whole or not at all, for a start that reads it meanwhile.
    renameSync(temporary, file);
    debug('written: %d bytes in %d ms', data.length, Math.round(performance.now() - started));
  } catch (error) {
    debug('not written: %s', error);
    rmSync(temporary, { force: true });
  }
}

/** Runs the CommonJS file `file` (a path) as Node's require() would, with a code cache. */
export function runWithCodeCache(file) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = `${file}.cache`;
  const cachedData = readCache(cacheFile, source);
  // scripts/bundle.mjs turned the bundle's import() calls into __bundleImport(): import() in a
  // script of node:vm needs a flag on Node 20. They import node: modules, packages and absolute
  // URLs only, which resolve from here as from the bundle beside this file.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __bundleImport) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  debug(used ? 'used' : cachedData === undefined ? 'none usable' : 'rejected by V8');
  if (!used && writable(path.dirname(cacheFile))) {
    const onListening = () => {
      diagnostics.unsubscribe(LISTENING_CHANNEL, onListening);
      writeCache(cacheFile, source, script);
    };
    diagnostics.subscribe(LISTENING_CHANNEL, onListening);
  }
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file), (specifier) => import(specifier));
  module.loaded = true;
  return module.exports;
}
