// npm run db:seed: imports the bundled catalog (CATALOG_DIR, default data/catalog) and makes it
// current. Re-running it on an unchanged catalog writes nothing.
import { seed } from '../src/modules/catalog-admin/index.js';
import { withAppContext } from './app-context.js';
import { runScript } from './script-runner.js';

await runScript(() =>
  withAppContext(async (app, config) => {
    const version = await seed(app, config.CATALOG_DIR);
    console.log(`Current catalog: ${version.label} (${version.id}), ${version.offerCount} offers.`);
  }),
);
