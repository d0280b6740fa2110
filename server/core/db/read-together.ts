import { SqlParams, type Queryable } from './sql-runner';

/**
 * One value of a combined read: an SQL expression (a scalar subquery, usually building json) that adds its
 * parameters to `params`, and how to turn the value it returns into the service's type (`runner` is for the
 * rare follow-up read, such as counting an agent's trust live while its maintained row is stale). The text
 * may vary only with constants (limits, column lists): the statement is kept prepared.
 */
export interface ReadPart<T> {
  sql(params: SqlParams): string;
  read(value: unknown, runner: Queryable): T | Promise<T>;
}

export type ReadResults<P> = { [K in keyof P]: P[K] extends ReadPart<infer T> ? T : never };

/**
 * Runs independent reads as the columns of one SELECT. A per-caller read at 50 connections is bound by its
 * statements (a round trip, a parse and a plan each), not by their index lookups: GET /api/v1/credits made
 * three and answered 2,073 req/s on the large preset, GET /api/v1/webhooks one and 3,591 (docs/benchmarks.md).
 * Prepared: planning the combined statement costs more than running it.
 */
export async function readTogether<P extends Record<string, ReadPart<unknown>>>(
  parts: P,
  runner: Queryable,
): Promise<ReadResults<P>> {
  const params = new SqlParams();
  const names = Object.keys(parts);
  const columns = names.map((name) => `(${parts[name]!.sql(params)}) AS "${name}"`);
  const [row] = await runner.query<Record<string, unknown>>(`SELECT ${columns.join(', ')}`, params.values, { prepare: true });
  const values = await Promise.all(names.map((name) => parts[name]!.read(row?.[name] ?? null, runner)));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as ReadResults<P>;
}
