// Throwaway databases for integration and e2e tests. The global setup migrates one template
// database per run; every test file clones it (CREATE DATABASE ... TEMPLATE, fast) so files
// never see each other's data. Nothing here touches a database whose name does not say "test".
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEMPLATE_URL_ENV = 'GPU_COST_TEST_TEMPLATE_URL';

export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.slice(1);
  if (!/test/i.test(name)) {
    throw new Error(`Refusing to touch database "${name}": test databases must have "test" in their name.`);
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = process.env[TEMPLATE_URL_ENV];
  if (!templateUrl) throw new Error(`${TEMPLATE_URL_ENV} is unset: run tests through jest's global setup (npm test).`);
  const template = databaseName(templateUrl);
  const name = `${template}_${randomBytes(3).toString('hex')}`;
  const url = withDatabase(templateUrl, name);
  assertTestDatabase(url);
  await adminQuery(templateUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return {
    url,
    drop: () => adminQuery(templateUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
