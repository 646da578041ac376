// The Bicep compiler for the tests: the binary `./pipeline test` restored from NuGet (INFRA_BICEP) or, when the tests
// run alone, the one infra/tools/BicepCli.csproj restores. Two uses:
// - compiledTemplate(): infra/main.bicep compiled to ARM JSON (INFRA_MAIN_JSON from the gate, else compiled here
//   into a temp folder keyed by a hash of infra/, so the test files of one run compile once);
// - snapshot(params): `bicep snapshot`, which evaluates the template locally for one parameter set the way ARM
//   would (modules expanded, names and scopes resolved, fail() raised), without Azure.
import { createHash } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const infraDir = join(repoRoot, 'infra');
const mainBicep = join(infraDir, 'main.bicep');
const toolsProject = join(infraDir, 'tools', 'BicepCli.csproj');
export const sensorKindsFile = join(repoRoot, 'core', 'SensorPipeline.Core', 'sensor-kinds.json');

let cachedBicep;

/** Path of the bicep binary: INFRA_BICEP, else restored through infra/tools/BicepCli.csproj. */
export function bicepPath() {
  if (cachedBicep) return cachedBicep;
  if (process.env.INFRA_BICEP) return (cachedBicep = process.env.INFRA_BICEP);
  const property = () => execFileSync('dotnet', ['msbuild', toolsProject, '-getProperty:BicepPath'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  let path = property();
  if (!existsSync(path)) {
    execFileSync('dotnet', ['restore', toolsProject, '--nologo', '-v', 'quiet'], { cwd: repoRoot, stdio: 'ignore' });
    path = property();
  }
  if (!existsSync(path)) throw new Error(`the Bicep CLI is missing at ${path}: run dotnet restore ${relative(repoRoot, toolsProject)}`);
  return (cachedBicep = path);
}

function infraHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'tests' && entry.name !== 'tools') walk(path);
      } else if (/\.(bicep|json|kql)$/.test(entry.name)) {
        const text = readFileSync(path);
        hash.update(relative(infraDir, path)).update(text);
        if (entry.name.endsWith('.bicep')) outside.push(...loadedFilesOutsideInfra(path, text.toString('utf8')));
      }
    }
  };
  const outside = [];
  walk(infraDir);
  // A template may load files from beyond infra/ (loadJsonContent('../../core/…')): they are inputs too.
  for (const path of [...new Set(outside)].sort()) hash.update(relative(repoRoot, path)).update(readFileSync(path));
  return hash.digest('hex').slice(0, 16);
}

function loadedFilesOutsideInfra(bicepFile, text) {
  return [...text.matchAll(/load(?:Json|Text|Yaml|FileAsBase64)Content\(\s*'([^']+)'/g)]
    .map((match) => resolve(dirname(bicepFile), match[1]))
    .filter((path) => relative(infraDir, path).startsWith('..') && existsSync(path));
}

let cachedTemplate;

/** infra/main.bicep compiled to ARM JSON (parsed). */
export function compiledTemplate() {
  if (cachedTemplate) return cachedTemplate;
  let path = process.env.INFRA_MAIN_JSON;
  if (!path) {
    const dir = join(tmpdir(), 'sensorpipeline-bicep', infraHash());
    path = join(dir, 'main.json');
    if (!existsSync(path)) {
      const work = mkdtempSync(join(tmpdir(), 'sensorpipeline-bicep-build-'));
      execFileSync(bicepPath(), ['build', mainBicep, '--outdir', work], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
      mkdirSync(dir, { recursive: true });
      renameSync(join(work, 'main.json'), path); // atomic: test files compiling at once never read half a file
      rmSync(work, { recursive: true, force: true });
    }
  }
  return (cachedTemplate = JSON.parse(readFileSync(path, 'utf8')));
}

/** A .bicepparam literal for a JS value. */
function bicepValue(value) {
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return String(value);
}

/**
 * Evaluates infra/main.bicep (or a copy of it elsewhere, `main`) for one parameter set with `bicep snapshot` (no Azure involved).
 * Resolves to { ok, resources, diagnostics, output } where resources are the predicted resources when ok and
 * output is the compiler's stderr + stdout (the fail() message when a rule rejects the parameters).
 * A snapshot costs the compiler ~4 s and depends only on the compiler, infra/ and the parameters, so results are kept
 * in the temp folder under a hash of all three: `./pipeline test` runs these tests twice (its own run and the script's
 * test of `./pipeline test infra`), and a second run with nothing changed reads them back.
 */
export async function snapshot(params, main = mainBicep) {
  const zero = '00000000-0000-0000-0000-000000000000';
  const lines = [...Object.entries(params).map(([k, v]) => `param ${k} = ${bicepValue(v)}`)];
  const args = ['--mode', 'overwrite', '--subscription-id', zero, '--tenant-id', zero, '--location', params.location ?? 'westeurope'];
  const key = createHash('sha256').update(bicepPath()).update(infraHash()).update(JSON.stringify([lines, args])).digest('hex').slice(0, 24);
  const cacheDir = join(tmpdir(), 'sensorpipeline-bicep', 'snapshots');
  const cached = join(cacheDir, `${key}.json`);
  if (main !== mainBicep) return runSnapshot(main, lines, args); // a copy: its inputs are not the ones hashed
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8'));
  const result = await runSnapshot(main, lines, args);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(result));
  renameSync(partial, cached); // atomic: test files running at once never read half a file
  return result;
}

function runSnapshot(main, paramLines, args) {
  const dir = mkdtempSync(join(tmpdir(), 'sensorpipeline-snapshot-'));
  const file = join(dir, 'case.bicepparam');
  writeFileSync(file, [`using '${relative(dir, main)}'`, ...paramLines].join('\n') + '\n');
  return new Promise((resolvePromise) => {
    execFile(bicepPath(), ['snapshot', file, ...args], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const snapshotFile = join(dir, 'case.snapshot.json');
      const ok = !error && existsSync(snapshotFile);
      const parsed = ok ? JSON.parse(readFileSync(snapshotFile, 'utf8')) : { predictedResources: [], diagnostics: [] };
      rmSync(dir, { recursive: true, force: true });
      resolvePromise({ ok, resources: parsed.predictedResources, diagnostics: parsed.diagnostics, output: `${stderr}${stdout}` });
    });
  });
}
