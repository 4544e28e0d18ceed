// npm run apikeys -- create <name> | list | revoke <id or prefix>: API keys for AUTH_MODE=required.
// The key is printed once, at creation; only its hash is stored.
import { ApiKeysService } from '../src/modules/auth/index.js';
import { withAppContext } from './app-context.js';
import { runScript } from './script-runner.js';

const USAGE = 'Usage: npm run apikeys -- create <name> | list | revoke <id or prefix>';

await runScript(async () => {
  const [command, arg = ''] = process.argv.slice(2);
  if (!['create', 'list', 'revoke'].includes(command ?? '') || (command !== 'list' && !arg)) {
    console.error(USAGE);
    return 2;
  }
  return withAppContext(async (app) => {
    const keys = app.get(ApiKeysService);
    if (command === 'create') {
      const { key, record } = await keys.create(arg);
      console.log(`Created API key "${record.name}" (${record.id}). It is shown only now:\n\n  ${key}\n`);
      console.log('Send it as "Authorization: Bearer <key>" or "x-api-key: <key>".');
    } else if (command === 'list') {
      const all = await keys.list();
      if (all.length === 0) console.log('No API keys.');
      for (const k of all)
        console.log([k.id, k.prefix.padEnd(12), k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active', k.name].join('  '));
    } else {
      const revoked = await keys.revoke(arg);
      if (revoked.length === 0) {
        console.error(`No active key with id or prefix ${arg}.`);
        return 1;
      }
      for (const k of revoked) console.log(`Revoked ${k.prefix} (${k.name}); instances stop accepting it within API_KEY_CACHE_MS.`);
    }
    return 0;
  });
});
