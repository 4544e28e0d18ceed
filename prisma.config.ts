// Prisma 7 CLI configuration. On a machine with internet, `npx prisma migrate deploy` and
// `npx prisma migrate status` read DATABASE_URL from here and agree with `npm run db:migrate`.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/gpu_cost' },
});
