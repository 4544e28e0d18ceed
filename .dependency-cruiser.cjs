// The import rules of docs/architecture.md, checked by `npm run lint` (depcruise). A rule broken by
// a change fails CI; each rule says what it keeps apart. Tests (*.spec.ts, testing/ folders) may
// reach across features to set them up; production code may not.
const TESTS = ['\\.spec\\.ts$', '/testing/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain is plain TypeScript: no Nest, Prisma, pg or HTTP, and nothing of the application around it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        path: [
          '^src/(modules|common|config|database|generated)/',
          '^src/[^/]+\\.ts$',
          'node_modules/(@nestjs|@prisma|prisma|pg|pg-copy-streams|fastify|@fastify|graphql|@apollo)/',
        ],
      },
    },
    {
      name: 'common-imports-no-feature',
      comment: 'src/common serves every feature and knows none of them.',
      severity: 'error',
      from: { path: '^src/common/', pathNot: TESTS },
      to: { path: '^src/modules/' },
    },
    {
      name: 'feature-through-its-index',
      comment: "A feature uses another only through that feature's index.ts, never its internals; its Nest module imports the other's module file (DI wiring).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.module\\.ts$'] },
    },
    {
      name: 'only-modules-import-modules',
      comment: "Only a Nest module file imports another feature's module file: code that uses a service does not load the feature's controllers.",
      severity: 'error',
      from: { path: '^src/(modules/([^/]+)/|[^/]+\\.ts$)', pathNot: [...TESTS, '\\.module\\.ts$'] },
      to: { path: '^src/modules/([^/]+)/[^/]+\\.module\\.ts$' },
    },
    {
      name: 'catalog-reads-know-no-writes',
      comment: 'The service loads the catalog reads; catalog-admin and price-feeds are command-line code above them.',
      severity: 'error',
      from: { path: '^src/modules/(catalog|offers|estimates|health|metrics|http|auth)/' },
      to: { path: '^src/modules/(catalog-admin|price-feeds)/' },
    },
    {
      name: 'admin-knows-no-feeds',
      comment: 'Price feeds use catalog-admin to import; never the other way round.',
      severity: 'error',
      from: { path: '^src/modules/catalog-admin/' },
      to: { path: '^src/modules/price-feeds/' },
    },
    {
      name: 'web-only-reads-the-schema',
      comment: 'The dashboard talks to the service over GraphQL only: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(src|scripts|test)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle of imports makes load order matter (ES modules, decorators).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/generated/'] },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'type-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/generated/', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
