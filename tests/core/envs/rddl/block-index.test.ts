/**
 * The header scan a server uses to index RDDL files without parsing them must find exactly the blocks the
 * parser finds (kind, name, name position, and the domain and non-fluents an instance names), on every
 * IPPC file, rddlsim's test domains and the built-in examples, and must follow comments and nesting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanRddlBlocks } from '../../../../src/core/envs/rddl/block-index';
import { EXAMPLE_DOMAINS, exampleSources, parseRddl } from '../../../../src/core/envs/rddl/index';
import { BENCHMARK_DIRS, CONFORMANCE_DIR } from './shared-files';

function parsedHeaders(name: string, text: string) {
  const { file, diagnostics } = parseRddl({ name, text });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return file.blocks.map((block) => ({
    kind: block.kind,
    name: block.name,
    nameLoc: { line: block.nameLoc.line, column: block.nameLoc.column },
    ...(block.kind !== 'domain' ? { domain: block.domain } : {}),
    ...(block.kind === 'instance' && block.nonFluents !== undefined ? { nonFluents: block.nonFluents } : {}),
  }));
}

const files = [
  ...[...BENCHMARK_DIRS, join(CONFORMANCE_DIR, 'testdomains')].flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.rddl'))
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') })),
  ),
  ...EXAMPLE_DOMAINS.flatMap(exampleSources),
];

describe('scanRddlBlocks', () => {
  it(`finds the blocks the parser finds in ${files.length} real files`, () => {
    expect(files.length).toBeGreaterThan(60);
    for (const { name, text } of files) {
      expect({ name, blocks: scanRddlBlocks(text) }).toEqual({ name, blocks: parsedHeaders(name, text) });
    }
  });

  it('skips comments, nested braces and look-alike words inside blocks', () => {
    const text = [
      '// instance commented_out { domain = x; }',
      '/* domain also_commented {',
      '   } */',
      'domain d_mdp {',
      '  types { instance_kind : object; };',
      '  pvariables { domain : { state-fluent, bool, default = false }; };',
      '}',
      'non-fluents nf_1 {',
      '  domain = d_mdp;',
      '  objects { instance_kind : { a, b }; };',
      '}',
      '  instance   inst_1 {   // trailing comment',
      '  domain = d_mdp; non-fluents = nf_1;',
      '  horizon = 3;',
      '}',
    ].join('\n');
    expect(scanRddlBlocks(text)).toEqual([
      { kind: 'domain', name: 'd_mdp', nameLoc: { line: 4, column: 8 } },
      { kind: 'non-fluents', name: 'nf_1', nameLoc: { line: 8, column: 13 }, domain: 'd_mdp' },
      {
        kind: 'instance',
        name: 'inst_1',
        nameLoc: { line: 12, column: 14 },
        domain: 'd_mdp',
        nonFluents: 'nf_1',
      },
    ]);
  });

  it('never throws on text it cannot follow', () => {
    for (const text of ['', '}}}{', 'instance {', 'domain x', '/* never closed', 'instance a { domain = ;']) {
      expect(Array.isArray(scanRddlBlocks(text))).toBe(true);
    }
    expect(scanRddlBlocks('}}} domain late { }')).toEqual([
      { kind: 'domain', name: 'late', nameLoc: { line: 1, column: 12 } },
    ]);
  });
});
