// What db/types.ts says about each table, read with the TypeScript compiler: per column,
// the kinds of value a select returns and whether an insert must, may or cannot give it.
// db/schema.test.ts holds this against the live schema, so the hand-written types cannot drift.
import path from 'node:path';
import ts from 'typescript';

export interface DeclaredColumn {
  /** Kinds of the selected value: 'string', 'number', 'boolean', 'Date', 'Buffer', 'string[]', 'null', … */
  select: string[];
  /** In Insertable<…>: required, optional, or absent (a column the app may not write). */
  insert: 'required' | 'optional' | 'never';
}

const root = path.resolve(import.meta.dirname, '..');
const probe = path.join(root, 'db', '__row_types_probe__.ts');
const probeText = `import type { Insertable, Selectable } from 'kysely';
import type { DB } from './types';
export type Select = { [T in keyof DB]: Selectable<DB[T]> };
export type Insert = { [T in keyof DB]: Insertable<DB[T]> };
`;

/** table → column → what the types declare. */
export function readDeclaredTables(): Record<string, Record<string, DeclaredColumn>> {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  // Only what db/types.ts needs (Node's Buffer, kysely), so the program is small.
  const compilerOptions = { ...options, noEmit: true, incremental: false, lib: ['lib.es2023.d.ts'], types: ['node'] };
  const host = ts.createCompilerHost(compilerOptions);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    path.resolve(file) === probe
      ? ts.createSourceFile(file, probeText, language)
      : getSourceFile(file, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  const program = ts.createProgram([probe], compilerOptions, host);
  const errors = [probe, path.join(root, 'db', 'types.ts')]
    .flatMap((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)))
    .filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, host));
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe)!;
  const alias = (name: string) => {
    const node = source.statements.find(
      (s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name,
    );
    if (!node) throw new Error(`probe has no ${name}`);
    return node;
  };

  const kinds = (type: ts.Type): string[] => {
    const out = new Set<string>();
    for (const part of type.isUnion() ? type.types : [type]) {
      const f = part.flags;
      if (f & ts.TypeFlags.Null) out.add('null');
      else if (f & ts.TypeFlags.Undefined) out.add('undefined');
      else if (f & ts.TypeFlags.StringLike) out.add('string');
      else if (f & ts.TypeFlags.NumberLike) out.add('number');
      else if (f & ts.TypeFlags.BigIntLike) out.add('bigint');
      else if (f & ts.TypeFlags.BooleanLike) out.add('boolean');
      else if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) out.add('unknown');
      else if (checker.isArrayType(part))
        out.add(`${kinds(checker.getTypeArguments(part as ts.TypeReference)[0]!).join('|')}[]`);
      else out.add(checker.typeToString(part).replace(/<.*>$/, ''));
    }
    return [...out].sort();
  };
  const tablesOf = (name: string) => {
    const node = alias(name);
    const map = new Map<string, Map<string, ts.Symbol>>();
    for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(node.name))) {
      const columns = checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(table, node));
      map.set(table.name, new Map(columns.map((c) => [c.name, c])));
    }
    return { node, map };
  };

  const select = tablesOf('Select');
  const insert = tablesOf('Insert');
  const result: Record<string, Record<string, DeclaredColumn>> = {};
  for (const [table, columns] of select.map) {
    const declared: Record<string, DeclaredColumn> = (result[table] = {});
    for (const [column, symbol] of columns) {
      const inserted = insert.map.get(table)?.get(column);
      declared[column] = {
        select: kinds(checker.getTypeOfSymbolAtLocation(symbol, select.node)),
        insert: !inserted ? 'never' : inserted.flags & ts.SymbolFlags.Optional ? 'optional' : 'required',
      };
    }
  }
  return result;
}
