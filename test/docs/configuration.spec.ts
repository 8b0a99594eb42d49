import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../../src/config/load-config';
import { Variable } from '../../src/shared/settings';

const REFERENCE = join(__dirname, '..', '..', 'docs', 'configuration.md');
const START = '<!-- The table is made from the settings in src/config/ by `npm run docs:config`: edit them there. -->';
const END = '<!-- End of the generated table. -->';

function row({ name, default: fallback, note, meaning, range, values }: Variable): string {
  const shown = fallback === undefined ? (note ?? 'unset') : `\`${fallback}\`${note ? ` (${note})` : ''}`;
  const rule = range
    ? ` An integer from ${range[0]} to ${range[1]}.`
    : values
      ? ` ${values
          .map((value) => `\`${value}\``)
          .join(', ')
          .replace(/, ([^,]*)$/, ' or $1')}.`
      : '';
  const cells = [`\`${name}\``, shown, meaning + rule];
  if (cells.some((cell) => cell.includes('|') || cell.includes('\n')))
    throw new Error(`${name}: a cell breaks the table`);
  return `| ${cells.join(' | ')} |`;
}

function table(): string {
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...CONFIG_VARIABLES.map(row)].join('\n');
}

describe('docs/configuration.md', () => {
  it('lists every variable as src/config/ declares it (npm run docs:config writes the table)', () => {
    const document = readFileSync(REFERENCE, 'utf8');
    const start = document.indexOf(START);
    const end = document.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const generated = `${document.slice(0, start + START.length)}\n\n${table()}\n\n${document.slice(end)}`;
    if (process.env.UPDATE_DOCS) writeFileSync(REFERENCE, generated);
    expect(document).toBe(generated);
  });
});
