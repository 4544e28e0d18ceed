// npm run db:url: the connection string of the database this checkout uses: DATABASE_URL when set,
// else the embedded PostgreSQL of a running `npm start` (src/database/embedded-owner.ts), else the
// one `npm start` would start (said on stderr), so psql and other tools reach the same data.
import { loadConfig } from '../src/config/app-config.js';
import { embeddedDataDir } from '../src/database/database-url.js';
import { runningOwner } from '../src/database/embedded-owner.js';
import { embeddedUrl } from '../src/database/embedded-postgres.js';
import { runScript } from './script-runner.js';

await runScript(async () => {
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.log(config.DATABASE_URL);
    return 0;
  }
  const dataDir = embeddedDataDir(config).dir;
  const owner = await runningOwner(dataDir);
  if (owner) {
    console.log(owner.url);
    console.error(`(the embedded PostgreSQL of the running service, pid ${owner.pid})`);
    return 0;
  }
  console.log(embeddedUrl(config.EMBEDDED_PG_PORT, config.EMBEDDED_PG_DATABASE));
  console.error(`(not running: npm start starts it, data in ${dataDir})`);
  return 0;
});
