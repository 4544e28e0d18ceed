// graphql-codegen (client preset): types for the operations in graphql-client.ts, read from the
// committed schema.gql. `npm run clients:generate` writes them to gql/.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.gql',
  documents: ['examples/clients/graphql-client.ts'],
  generates: {
    // CLIENTS_OUT: where src/common/openapi/clients.spec.ts regenerates them, to compare.
    [`${process.env.CLIENTS_OUT ?? 'examples/clients'}/gql/`]: {
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true, emitLegacyCommonJSImports: false, scalars: { DateTime: 'string' } },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
