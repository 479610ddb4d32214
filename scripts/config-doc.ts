/** Rewrites the configuration table of docs/configuration.md from the config entries (the single source). */
import { readFileSync, writeFileSync } from 'node:fs';
import { listEntries } from '../apps/server/src/platform/config/index.js';

const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';
const file = new URL('../docs/configuration.md', import.meta.url);

const rows = listEntries().map(({ path, entry }) => {
  const fallback = entry.default === undefined ? '(unset)' : `\`${String(entry.default)}\``;
  return `| \`${entry.env}\` | ${path[0]} | ${fallback} | ${entry.doc.replaceAll('|', '\\|')} |`;
});
const table = ['| Variable | Group | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
const doc = readFileSync(file, 'utf8');
const before = doc.slice(0, doc.indexOf(START) + START.length);
const after = doc.slice(doc.indexOf(END));
writeFileSync(file, `${before}\n${table}\n${after}`);
