// npm run db:migrate -- <create NAME | deploy | check>
//   create: writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema changes since
//           the last migration (prisma/migrations/schema.snapshot.prisma) and updates the snapshot.
//   deploy: applies pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR.
//   check:  fails when schema.prisma has changes that no migration covers.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../server/core/db/migrations';
import { diffSchemas, isEmptyDiff } from './schema-diff';

const SCHEMA = path.resolve('prisma/schema.prisma');
const SNAPSHOT = path.join(MIGRATIONS_DIR, 'schema.snapshot.prisma');

async function pendingSql(): Promise<string> {
  const previous = existsSync(SNAPSHOT) ? readFileSync(SNAPSHOT, 'utf8') : null;
  return diffSchemas(previous, readFileSync(SCHEMA, 'utf8'));
}

async function create(name: string | undefined) {
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('usage: db:migrate create <name in snake_case>');
  const sql = await pendingSql();
  if (isEmptyDiff(sql)) {
    console.log('schema.prisma has no changes since the last migration');
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), `${sql}\n`);
  writeFileSync(SNAPSHOT, readFileSync(SCHEMA, 'utf8'));
  console.log(`created ${path.relative(process.cwd(), dir)}/migration.sql`);
}

async function check() {
  const sql = await pendingSql();
  if (!isEmptyDiff(sql)) {
    console.error(`prisma/schema.prisma has changes that no migration covers; run npm run db:migrate -- create <name>:\n${sql}`);
    process.exit(1);
  }
  console.log('migrations cover schema.prisma');
}

async function deploy() {
  const { loadConfig } = await import('../server/core/config');
  const { openDatabase } = await import('../server/core/db/open');
  const config = loadConfig(process.env);
  const database = await openDatabase(config, { migrate: false });
  try {
    const { deployMigrations } = await import('../server/core/db/migrations');
    const applied = await deployMigrations(database.sql);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations');
  } finally {
    await database.close();
  }
}

const [command, arg] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = { create: () => create(arg), check, deploy };
const run = commands[command ?? ''];
if (!run) {
  console.error('usage: npm run db:migrate -- <create NAME | deploy | check>');
  process.exit(2);
}
run().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
