import ts from 'typescript';

const libraries = new Map<string, ts.SourceFile | undefined>();

/**
 * Type errors of policies checked against a protocol's generated declarations, with the editor's strict
 * settings: one program, each policy a module of its own. Keyed by policy name; errors inside the
 * declarations themselves are listed under `policy-types`.
 */
export function policyTypeErrors(codes: Record<string, string>, types: string): Record<string, string[]> {
  const files = new Map([
    ...Object.entries(codes).map(([name, code]) => [`/${name}.ts`, code] as const),
    ['/policy-types.d.ts', types],
  ]);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => {
    const text = files.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, version);
    // The standard library is the same for every check: parse it once.
    let library = libraries.get(name);
    if (!library) libraries.set(name, (library = read(name, version)));
    return library;
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errors: Record<string, string[]> = Object.fromEntries(Object.keys(codes).map((name) => [name, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file?.fileName.slice(1, -3) ?? 'policy-types';
    (errors[name] ??= []).push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }
  return errors;
}
