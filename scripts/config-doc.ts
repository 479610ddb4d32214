/** Prints the configuration table of docs/configuration.md from the config entries (the single source). */
import { listEntries } from '../apps/server/src/platform/config/index.js';

const rows = listEntries().map(({ path, entry }) => {
  const fallback = entry.default === undefined ? '(unset)' : `\`${String(entry.default)}\``;
  return `| \`${entry.env}\` | ${path[0]} | ${fallback} | ${entry.doc.replaceAll('|', '\\|')} |`;
});
process.stdout.write(['| Variable | Group | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n');
