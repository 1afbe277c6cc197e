import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Compiles the type test without its @ts-expect-error markers: every marked
 * line must then produce a type error, and the unmarked lines none.
 */
describe('event bus types', () => {
  it('refuses each wrong payload at compile time', () => {
    const dir = __dirname;
    const source = readFileSync(path.join(dir, 'event-bus.typetest.ts'), 'utf8');
    const lines = source.split('\n');
    const expected: number[] = [];
    const stripped = lines.map((line, i) => {
      if (line.trimStart().startsWith('// @ts-expect-error')) {
        expected.push(i + 1); // the offending line follows the marker
        return '//';
      }
      return line;
    });
    const file = path.join(dir, '__stripped.typetest.ts');
    const host = ts.createCompilerHost({});
    const original = host.getSourceFile;
    host.getSourceFile = (name, lang, ...rest) =>
      path.resolve(name) === file
        ? ts.createSourceFile(name, stripped.join('\n'), lang)
        : original.call(host, name, lang, ...rest);
    host.fileExists = ((orig) => (name: string) => path.resolve(name) === file || orig(name))(host.fileExists);
    const program = ts.createProgram(
      [file],
      { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'] },
      host,
    );
    const errorLines = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && path.resolve(d.file.fileName) === file)
      .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line);
    expect([...new Set(errorLines)].sort((a, b) => a - b)).toEqual(expected);
  });
});
