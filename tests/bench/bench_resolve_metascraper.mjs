// bench_resolve_metascraper.mjs: the peer of bench-resolve's page mode
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
//   node bench_resolve_metascraper.mjs MODULES_DIR URLS_FILE CONCURRENCY
//
// Fetches every URL of URLS_FILE (one a line) with Node's fetch, CONCURRENCY at a time, and runs
// metascraper with its title, description and image rules over each page, as link-preview
// services do. Prints one JSON object per URL, in the file's order: url, title, description,
// image (or error). MODULES_DIR is where `npm install --prefix` put metascraper.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [modulesDir, urlsFile, concurrencyArg] = process.argv.slice(2);
const require = createRequire(join(modulesDir, 'node_modules', 'bench.js'));
const metascraper = require('metascraper')([
  require('metascraper-title')(),
  require('metascraper-description')(),
  require('metascraper-image')(),
]);

const urls = readFileSync(urlsFile, 'utf8').split('\n').filter((line) => line !== '');
const results = new Array(urls.length);
let next = 0;

async function worker() {
  while (next < urls.length) {
    const index = next++;
    const url = urls[index];

    try {
      const response = await fetch(url);
      const html = await response.text();
      const meta = await metascraper({ url: response.url, html });

      results[index] = { url, title: meta.title, description: meta.description, image: meta.image };
    } catch (error) {
      results[index] = { url, error: String(error) };
    }
  }
}

const workers = [];
for (let i = 0; i < Number(concurrencyArg); i++)
  workers.push(worker());
await Promise.all(workers);

process.stdout.write(results.map((result) => JSON.stringify(result)).join('\n') + '\n');
