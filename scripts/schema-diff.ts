// Prisma's wasm schema engine, loaded by hand: `prisma migrate` needs a native engine binary that
// cannot be downloaded offline, but diffing one datamodel against another needs no database.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PGlite } from '@electric-sql/pglite';

const require = createRequire(import.meta.url);

interface Engine {
  diff(params: unknown): Promise<{ exitCode: number; stdout?: string | null }>;
}

async function loadEngine(datamodel: string): Promise<Engine> {
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const bg = await import(path.join(dir, 'schema_engine_bg.js'));
  const module = new WebAssembly.Module(readFileSync(path.join(dir, 'schema_engine_bg.wasm')));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  // The engine insists on an adapter; a diff between two datamodels never uses it.
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(new PGlite()));
  return bg.SchemaEngine.new({ datamodels: [['schema.prisma', datamodel]] }, () => {}, adapter);
}

/** The SQL that turns a database at `from` (a datamodel, or null for empty) into `to`. */
export async function diffSchemas(from: string | null, to: string): Promise<string> {
  const engine = await loadEngine(to);
  const target = (content: string) => ({ tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content }] });
  const result = await engine.diff({
    from: from === null ? { tag: 'empty' } : target(from),
    to: target(to),
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  // Tables stay unqualified so a deployment can live in any schema (search_path).
  return (result.stdout ?? '').replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n?/g, '').trim();
}

export function isEmptyDiff(sql: string): boolean {
  return sql.replace(/^--.*$/gm, '').trim() === '' || /^-- This is an empty migration\.?$/m.test(sql);
}
