/**
 * `npm run build:package` (run by `npm pack` and `npm publish` through `prepack`, after the site's build):
 * compiles what the package runs, so nothing is compiled when a user starts it.
 *
 * - `lib/cli/`: the command line, one ES module bundle per entry with a shared chunk per lazily loaded
 *   command, all in one folder, its threads' entries included (scripts/cli-bundle.ts, which the tests'
 *   compiled command line is built with too).
 * - `lib/index.js` and `lib/types/`: the engine's public API (src/core/index.ts) and its declarations.
 *
 * Dependencies stay imports (`npm install` brings them); only this repository's own code is bundled.
 */
import { build, type BuildOptions } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { bundleCli } from './cli-bundle';
import { rawText } from './raw-text-plugin';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'lib');

const shared: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [rawText],
  logLevel: 'warning',
  legalComments: 'none',
};

rmSync(out, { recursive: true, force: true });

const cli = await bundleCli(join(out, 'cli'), { metafile: true });
writeBundledLicences(Object.keys(cli.metafile?.inputs ?? {}), join(out, 'cli/THIRD-PARTY-LICENSES.txt'));

await build({ ...shared, platform: 'neutral', entryPoints: [join(root, 'src/core/index.ts')], outdir: out });

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.lib.json'], {
  cwd: root,
  stdio: 'inherit',
});
addDeclarationExtensions(join(out, 'types'));
console.log('compiled the command line into lib/cli and the engine into lib/index.js, lib/types');

/** The licence of every package bundled into the command line, as their licences ask copies to carry. */
function writeBundledLicences(inputs: readonly string[], file: string): void {
  const packages = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]!);
  }
  const sections = [...packages].sort().map((folder) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenceFile = readdirSync(join(root, folder)).find((name) => /^licen[cs]e/i.test(name));
    if (!licenceFile && !manifest.license) throw new Error(`${manifest.name} states no licence`);
    const text = licenceFile
      ? readFileSync(join(root, folder, licenceFile), 'utf8').trim()
      : `The package ships no licence text; its package.json names the ${manifest.license} licence.`;
    return `${manifest.name} ${manifest.version} (${manifest.license ?? 'see below'})\n\n${text}\n`;
  });
  writeFileSync(
    file,
    `The command line in this folder bundles these packages; their licences follow.\n\n${sections.join('\n---\n\n')}`,
  );
}

/**
 * The declarations keep the sources' extensionless relative imports, which Node's resolution (and
 * TypeScript's `node16` mode, which follows it) does not accept: each becomes the `.js` file it stands for.
 */
function addDeclarationExtensions(folder: string): void {
  for (const file of listFiles(folder).filter((path) => path.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(
      /(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g,
      (whole, before: string, quote: string, specifier: string) => {
        if (/\.(js|mjs|cjs|json)$/.test(specifier)) return whole;
        const base = resolve(dirname(file), specifier);
        if (existsSync(`${base}.d.ts`)) return `${before}${quote}${specifier}.js${quote}`;
        if (existsSync(join(base, 'index.d.ts'))) return `${before}${quote}${specifier}/index.js${quote}`;
        throw new Error(`${file}: cannot resolve the declaration import '${specifier}'`);
      },
    );
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
