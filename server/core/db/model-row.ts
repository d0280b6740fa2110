// A model read by raw SQL, as Prisma's model: one table of each field's column and kind makes the select
// list, the json form and the mapping back. The table must name every field of the model (the typecheck
// fails otherwise); each model's int test compares the result with Prisma's own read, field by field, on
// PGlite and PostgreSQL. Raw reads are for hot lists: Prisma spent 4-10 ms turning 20 wide skill rows into
// objects that the same SELECT fetched in 1 ms.

export type ColumnKind = 'value' | 'bigint' | 'date' | 'list';

// int8 arrives as a string from node-postgres and as a number from PGlite; timestamps as Dates from both
// (strings inside json); Prisma reads a NULL list column as [].
const convert: Record<ColumnKind, (value: unknown) => unknown> = {
  value: (value) => value,
  list: (value) => value ?? [],
  bigint: (value) => (value === null ? null : BigInt(value as string | number | bigint)),
  date: (value) => (value === null || value instanceof Date ? value : new Date(value as string)),
};

export interface ModelRows<M> {
  /** The select list of every column of the table aliased `alias`, under the column's own name. */
  columns(alias: string): string;
  /** The json of every column (int8 as text: json numbers stop being exact past 2^53), for fromRow(). */
  json(alias: string): string;
  /** The model of a row that selected columns(), or of the value of json(). */
  fromRow(row: Record<string, unknown>): M;
}

export function modelRows<M>(model: string, fields: Record<keyof M, readonly [column: string, kind: ColumnKind]>): ModelRows<M> {
  const entries = Object.entries(fields) as [keyof M, readonly [string, ColumnKind]][];
  return {
    columns: (alias) => entries.map(([, [column]]) => `${alias}.${column}`).join(', '),
    json: (alias) =>
      `json_build_object(${entries.map(([, [column, kind]]) => `'${column}', ${alias}.${column}${kind === 'bigint' ? '::text' : ''}`).join(', ')})`,
    fromRow(row) {
      const found: Record<string, unknown> = {};
      for (const [field, [column, kind]] of entries) {
        if (!(column in row)) throw new Error(`${model} row without column ${column}`);
        found[field as string] = convert[kind](row[column] ?? null);
      }
      return found as M;
    },
  };
}
