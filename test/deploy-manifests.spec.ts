// The deployment files, checked without a cluster: every resource of deploy/k8s/base (assembled
// from its kustomization.yaml's `resources`, as kustomize would) against the strict JSON schema
// of its kind from Kubernetes 1.34 (vendored in deploy/k8s/schemas, README there), so a misspelt
// field or a wrong type fails; the example overlay's patches name resources of the base; and
// docker-compose.yml's fleet profile names only services that exist.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse, parseAllDocuments } from 'yaml';

const BASE = 'deploy/k8s/base';
const OVERLAY = 'deploy/k8s/overlays/example';

interface Resource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/** The vendored schema's file for an apiVersion and kind: deployment-apps-v1, service-v1, ... */
function schemaFile(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const groupName = (group ?? '').split('.')[0];
  return `${kind.toLowerCase()}${groupName ? `-${groupName}` : ''}-${version}.json`;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ValidateFunction>();
function validatorFor(file: string): ValidateFunction {
  let v = validators.get(file);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(path.join('deploy/k8s/schemas', file), 'utf8')) as object);
    validators.set(file, v);
  }
  return v;
}

function kustomization(dir: string): { resources?: string[]; patches?: ({ path?: string; target?: { kind?: string; name?: string } } | undefined)[] } {
  return parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as ReturnType<typeof kustomization>;
}

function documents(file: string): Resource[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    return d.toJS() as Resource;
  });
}

const baseResources = (kustomization(BASE).resources ?? []).flatMap((file) => documents(path.join(BASE, file)).map((r) => ({ file, r })));

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('lists the kinds a fleet needs', () => {
    expect(new Set(baseResources.map(({ r }) => r.kind))).toEqual(
      new Set(['ConfigMap', 'Secret', 'Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'Job', 'CronJob']),
    );
  });

  it.each(baseResources.map(({ file, r }) => [`${file}: ${r.kind} ${r.metadata.name}`, r] as const))('%s matches its strict schema', (_name, resource) => {
    const validate = validatorFor(schemaFile(resource.apiVersion, resource.kind));
    const ok = validate(resource);
    expect(ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`)).toEqual([]);
  });

  it('refuses a misspelt field (the schemas are strict)', () => {
    const deployment = structuredClone(baseResources.find(({ r }) => r.kind === 'Deployment')?.r) as Resource & { spec: { replica?: number } };
    deployment.spec.replica = 3;
    expect(validatorFor(schemaFile(deployment.apiVersion, deployment.kind))(deployment)).toBe(false);
  });

  it('runs the API non-root on a read-only root filesystem, with probes, resources and a grace period', () => {
    const deployment = baseResources.find(({ r }) => r.kind === 'Deployment')?.r as unknown as {
      spec: {
        template: { spec: { securityContext: { runAsNonRoot: boolean }; terminationGracePeriodSeconds: number; containers: Record<string, unknown>[] } };
      };
    };
    const pod = deployment.spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(5);
    for (const c of pod.containers) {
      expect(c).toMatchObject({ securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }, resources: { requests: {}, limits: {} } });
      expect(c).toHaveProperty('readinessProbe.httpGet.path', '/health/ready');
      expect(c).toHaveProperty('livenessProbe.httpGet.path', '/health/live');
    }
  });

  it('runs every workload (the API, the migration Job, the catalog-sync CronJob) with the same restricted security context', () => {
    type Pod = { securityContext?: Record<string, unknown>; containers: { securityContext?: Record<string, unknown> }[] };
    const podOf = (r: Resource): Pod | undefined => {
      const spec = r.spec as { template?: { spec: Pod }; jobTemplate?: { spec: { template: { spec: Pod } } } } | undefined;
      return spec?.template?.spec ?? spec?.jobTemplate?.spec.template.spec;
    };
    const workloads = baseResources.filter(({ r }) => ['Deployment', 'Job', 'CronJob'].includes(r.kind));
    expect(workloads.map(({ r }) => r.kind).sort()).toEqual(['CronJob', 'Deployment', 'Job']);
    for (const { r } of workloads) {
      const pod = podOf(r);
      expect([r.kind, pod?.securityContext]).toEqual([r.kind, expect.objectContaining({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } })]);
      for (const c of pod?.containers ?? [])
        expect([r.kind, c.securityContext]).toEqual([
          r.kind,
          { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        ]);
    }
  });

  it('admits the service port only from named peers, and lets the API reach only DNS, PostgreSQL, Redis and Prometheus', () => {
    const policy = baseResources.find(({ r }) => r.kind === 'NetworkPolicy')?.r.spec as {
      ingress: { from?: unknown[]; ports: unknown[] }[];
      egress: { to?: unknown[]; ports: { port: number }[] }[];
    };
    // A rule without `from` (or `to`) admits every peer.
    for (const rule of policy.ingress) expect(rule.from?.length).toBeGreaterThan(0);
    for (const rule of policy.egress) expect(rule.to?.length).toBeGreaterThan(0);
    expect(policy.egress.flatMap((rule) => rule.ports.map((p) => p.port)).sort((a, b) => a - b)).toEqual([53, 53, 5432, 6379, 9090]);
  });

  it("the example overlay's patches change resources of the base", () => {
    const overlay = kustomization(OVERLAY);
    expect(overlay.resources).toEqual(['../../base']);
    const names = new Set(baseResources.map(({ r }) => `${r.kind}/${r.metadata.name}`));
    for (const patch of overlay.patches ?? []) {
      const target = patch?.path
        ? (() => {
            const [doc] = documents(path.join(OVERLAY, patch.path));
            return { kind: doc?.kind, name: doc?.metadata.name };
          })()
        : patch?.target;
      expect(names).toContain(`${target?.kind}/${target?.name}`);
    }
  });
});

describe('docker-compose.yml', () => {
  // Compose resolves YAML merge keys (<<), as the api-2 and api-3 services use them.
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
    services: Record<string, { profiles?: string[]; depends_on?: Record<string, unknown> | string[]; volumes?: string[]; image?: string; build?: unknown }>;
  };
  const fleet = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes('fleet'));

  it('has a fleet profile: three API instances, nginx, Redis, a PostgreSQL primary and replica', () => {
    expect(fleet.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'api-3', 'nginx', 'postgres-primary', 'postgres-replica', 'redis'].sort());
  });

  it('depends only on services that exist, and mounts the repository nginx configuration', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const deps = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const dep of deps) expect(`${name} -> ${Object.hasOwn(compose.services, dep) ? dep : `missing ${dep}`}`).toBe(`${name} -> ${dep}`);
    }
    const mounts = compose.services.nginx?.volumes ?? [];
    expect(mounts.some((m) => m.startsWith('./deploy/nginx/gpu-cost-api.conf:'))).toBe(true);
  });
});
