// Partial price updates through the admin script itself (node dist/app/catalog.js, what
// `npm run catalog:import` runs), on the bundled catalog in a real PostgreSQL: the scope of an
// import, the guard against large removals and changes, and the exit codes.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { CatalogImportService, CatalogWriterRepository } from '../src/modules/catalog-admin/index.js';
import { CatalogRepository } from '../src/modules/catalog/index.js';
import { CatalogService } from '../src/modules/catalog/catalog.service.js';
import { createTestContext, type TestContext } from './setup/test-app.js';
import { defined } from '../src/domain/checked.js';

const run = promisify(execFile);

interface Outcome {
  code: number;
  out: string;
}

describe('catalog:import partial updates (e2e, bundled catalog, real script)', () => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-updates-'));
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dir, { recursive: true, force: true });
  });

  const importer = async (...args: string[]): Promise<Outcome> => importFrom(undefined, ...args);
  /** The import as `npm run catalog:import` runs it when npm was called in `callerDir` (npm sets INIT_CWD). */
  const importFrom = async (callerDir: string | undefined, ...args: string[]): Promise<Outcome> => {
    const env = { PATH: process.env.PATH, DATABASE_URL: ctx.db.url, LOG_LEVEL: 'warn', ...(callerDir ? { INIT_CWD: callerDir } : {}) };
    try {
      const { stdout, stderr } = await run(process.execPath, ['dist/app/catalog.js', 'import', ...args], { env });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
  const offersOf = async (provider: string) => {
    const service = ctx.app.get(CatalogService);
    const content = await service.content(await service.resolveVersion());
    return content.offers.filter((o) => o.providerSlug === provider);
  };
  const awsFile = async () => (await readFile('data/catalog/offers/aws.yaml', 'utf8')).split('\n');

  it('updates one price from a copy of one provider file: changes one offer, removes none', async () => {
    const text = await readFile('data/catalog/offers/lambda.yaml', 'utf8');
    const edited = text.replace('pricePerGpuHour: "2.79"', 'pricePerGpuHour: "2.69"');
    expect(edited).not.toBe(text);
    const file = path.join(dir, 'lambda.yaml');
    await writeFile(file, edited);
    const dry = await importer(file, '--dry-run');
    expect(dry).toMatchObject({ code: 0 });
    expect(dry.out).toContain('they replace the offers of lambda');
    expect(dry.out).toContain('added 0, removed 0, changed 1');
    // Per instance: 8 × 2.79 = 22.32 -> 8 × 2.69 = 21.52 USD/h, (21.52 − 22.32) / 22.32 = −3.58%.
    expect(dry.out).toContain('22.32 USD/h -> 21.52 USD/h (-3.58%)');
    expect(dry.out).toContain('Dry run: nothing was written.');
  });

  it('seeds again after a rollback: the bundled content is an older version, which becomes current again, whatever its label', async () => {
    const env = { PATH: process.env.PATH, DATABASE_URL: ctx.db.url, LOG_LEVEL: 'warn' };
    const bundled = defined(await ctx.app.get(CatalogRepository).findCurrentVersion(), 'the seeded version');
    // A newer version (one AWS offer re-priced), published: the bundled one is no longer the newest.
    const lines = await awsFile();
    const changed = path.join(dir, 'aws-repriced.yaml');
    await writeFile(changed, lines.join('\n').replace('pricePerHour: "27.43298"', 'pricePerHour: "27.50000"'));
    expect((await importer(changed, '--publish')).code).toBe(0);
    expect((await ctx.app.get(CatalogRepository).findCurrentVersion())?.id).not.toBe(bundled.id);
    const { stdout } = await run(process.execPath, ['dist/app/catalog.js', 'seed'], { env });
    expect(stdout).toContain(`Current catalog: ${bundled.label} (${bundled.id})`);
    expect((await ctx.app.get(CatalogRepository).findCurrentVersion())?.id).toBe(bundled.id);
    // catalog:import of the same folder, --full --publish, says the same and writes nothing.
    const again = await importer('data/catalog', '--full', '--publish');
    expect([again.code, again.out]).toEqual([0, expect.stringContaining(`Unchanged: identical to version ${bundled.label}`)]);
  });

  it("reads a relative path from the caller's folder, and names the absolute path it tried when there is nothing", async () => {
    const caller = await mkdtemp(path.join(dir, 'caller-'));
    await writeFile(path.join(caller, 'h100.yaml'), (await awsFile()).slice(0, 16).join('\n'));
    const found = await importFrom(caller, 'h100.yaml', '--merge', '--dry-run');
    expect(found.code).toBe(0);
    expect(found.out).toContain('Dry run');
    const missing = await importFrom(caller, 'nothing-here.yaml', '--dry-run');
    expect(missing.code).toBe(1);
    expect(missing.out).toContain(`no such file or folder: ${path.join(caller, 'nothing-here.yaml')}`);
  });

  it('refuses a GCP A100 row in a region GCP does not sell it in, at file:line, naming the availability data', async () => {
    // a2-highgpu-1g is sold in europe-west4, us-central1, us-east1 and us-west1 (data/catalog/availability.yaml), not in europe-west1.
    const file = path.join(dir, 'gcp-a100.yaml');
    await writeFile(
      file,
      'offers:\n' +
        '  - { provider: gcp, region: europe-west4, gpu: a100-sxm-40gb, gpuCount: 1, instanceType: a2-highgpu-1g, pricingModel: ON_DEMAND,\n' +
        '      pricePerHour: "3.67", currency: USD, priceKind: LIST, sourceKind: MIRROR, source: "https://example.org/test", observedAt: "2026-11-30" }\n' +
        '  - { provider: gcp, region: europe-west1, gpu: a100-sxm-40gb, gpuCount: 1, instanceType: a2-highgpu-1g, pricingModel: ON_DEMAND,\n' +
        '      pricePerHour: "3.67", currency: USD, priceKind: LIST, sourceKind: MIRROR, source: "https://example.org/test", observedAt: "2026-11-30" }\n',
    );
    const refused = await importer(file, '--merge', '--dry-run');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(
      `${path.relative(process.cwd(), file)}:4 region: gcp does not sell a2-highgpu-1g in gcp:europe-west1: its availability data lists`,
    );
    expect(refused.out).toContain('gcp:europe-west4, gcp:us-central1, gcp:us-east1, gcp:us-west1');
    expect(refused.out).toContain('tools/machinetyperegion.csv');
  });

  it('refuses a one-offer H100 file that would replace every AWS offer, and --merge applies just that offer', async () => {
    const before = (await offersOf('aws')).length;
    const p5 = defined(
      (await offersOf('aws')).find((o) => o.instanceType === 'p5.48xlarge' && o.regionCode === 'aws:us-east-1' && o.pricingModel === 'ON_DEMAND'),
      'the p5 on-demand offer in us-east-1',
    );
    expect(p5.pricePerHour.toString()).toBe('55.04');
    const file = path.join(dir, 'h100.yaml');
    await writeFile(
      file,
      `offers:\n  - { provider: aws, region: "aws:us-east-1", gpu: h100-sxm-80gb, gpuCount: 8, instanceType: p5.48xlarge, pricingModel: ON_DEMAND,
      pricePerHour: "54.00", currency: USD, priceKind: LIST, sourceKind: PROVIDER_API, source: "https://example.org/test", observedAt: "2026-11-30" }\n`,
    );
    const refused = await importer(file);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`would remove ${before - 1} of ${before} offers in scope`);
    expect(refused.out).toContain('Refused: nothing was written');
    expect((await offersOf('aws')).length).toBe(before);

    const merged = await importer(file, '--merge', '--publish', '--label', 'h100-update');
    expect(merged.code).toBe(0);
    expect(merged.out).toContain('added 0, removed 0, changed 1');
    const after = await offersOf('aws');
    expect(after.length).toBe(before);
    expect(after.find((o) => o.keyHash === p5.keyHash)?.pricePerHour.toString()).toBe('54');
  });

  it('refuses a file that drops 40% of the AWS offers, with the counts, and takes it with --allow-large-change', async () => {
    const lines = await awsFile();
    const all = parse(lines.join('\n')).offers as unknown[];
    // Keep the first 60% of the rows (whole records: each starts with "  - provider:").
    const starts = lines.flatMap((l, i) => (l.startsWith('  - provider:') ? [i] : []));
    const keep = Math.floor(all.length * 0.6);
    const cut = lines.slice(0, starts[keep]).join('\n');
    const removed = all.length - keep;
    const file = path.join(dir, 'aws.yaml');
    await writeFile(file, `${cut}\n`);
    const pct = ((removed / all.length) * 100).toFixed(1);
    expect(Number(pct)).toBeGreaterThanOrEqual(40);

    const refused = await importer(file);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`would remove ${removed} of ${all.length} offers in scope (${pct}%, limit 10%)`);
    expect((await offersOf('aws')).length).toBe(all.length);
    const gcpBefore = (await offersOf('gcp')).length;

    const taken = await importer(file, '--allow-large-change', '--publish', '--label', 'aws-cut');
    expect(taken.code).toBe(0);
    expect(taken.out).toContain(`removed ${removed}`);
    expect((await offersOf('aws')).length).toBe(keep);
    // Other providers keep their offers.
    expect((await offersOf('gcp')).length).toBe(gcpBefore);
  });

  it('publishes the identical version when --publish meets content that exists but is not current', async () => {
    const repo = ctx.app.get(CatalogRepository);
    const file = path.join(dir, 'republish.yaml');
    await writeFile(
      file,
      `offers:\n  - { provider: aws, region: "aws:us-east-1", gpu: h100-sxm-80gb, gpuCount: 8, instanceType: p5.48xlarge, pricingModel: ON_DEMAND, ` +
        `pricePerHour: "53.00", currency: USD, priceKind: LIST, sourceKind: PROVIDER_API, source: "https://example.org/test", observedAt: "2026-11-30" }\n`,
    );
    const previous = defined(await repo.findCurrentVersion(), 'the current version');
    expect((await importer(file, '--merge', '--publish', '--label', 'republish-a')).code).toBe(0);
    const a = defined(await repo.findCurrentVersion(), 'the current version');
    expect(a.label).toBe('republish-a');
    // Roll back; the same import again (merged onto the same version) has exactly version a's content.
    await ctx.app.get(CatalogImportService).publish(previous.id);
    const again = await importer(file, '--merge', '--publish');
    expect(again.code).toBe(0);
    expect(again.out).toContain('Unchanged: identical to version republish-a');
    expect(again.out).toContain('Published: republish-a is now the current version.');
    expect((await repo.findCurrentVersion())?.id).toBe(a.id);
  });

  it('refuses to publish when another version became current after the diff, and --force overrides', async () => {
    const repo = ctx.app.get(CatalogRepository);
    const service = ctx.app.get(CatalogService);
    const before = defined(await repo.findCurrentVersion(), 'the current version');
    const content = await service.content(before);
    const changed = { ...content, offers: content.offers.slice(1) };
    const write = (force: boolean, label: string) =>
      ctx.app.get(CatalogWriterRepository).writeVersion({
        label,
        source: 'test',
        notes: null,
        content: changed,
        checksum: `${label}`.padEnd(64, '0'),
        filesChecksum: null,
        publish: true,
        expectedCurrentId: 'an-older-version',
        force,
      });
    const rows = await repo.countRows();
    expect(await write(false, 'moved-a')).toEqual({ status: 'moved', currentId: before.id });
    expect(await repo.countRows()).toEqual(rows);
    expect((await repo.findCurrentVersion())?.id).toBe(before.id);
    const forced = await write(true, 'moved-b');
    expect(forced).toMatchObject({ status: 'created', published: true });
    expect((await repo.findCurrentVersion())?.label).toBe('moved-b');
  });

  it("dates a publication at its commit, not at its transaction's start: an asOf during a long import names the version current then", async () => {
    const repo = ctx.app.get(CatalogRepository);
    const service = ctx.app.get(CatalogService);
    const before = defined(await repo.findCurrentVersion(), 'the current version');
    const content = await service.content(before);
    // The write's transaction is held open 1.5 s (the progress callback runs inside it, during the COPY).
    const holdMs = 1_500;
    let held = false;
    const hold = () => {
      if (!held) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs);
      held = true;
    };
    const started = Date.now();
    const outcome = await ctx.app.get(CatalogWriterRepository).writeVersion({
      label: 'slow-publish',
      source: 'test',
      notes: null,
      content: { ...content, offers: content.offers.slice(2) },
      checksum: 'slow-publish'.padEnd(64, '0'),
      filesChecksum: null,
      publish: true,
      expectedCurrentId: before.id,
      onProgress: hold,
    });
    const committed = Date.now();
    expect(outcome).toMatchObject({ status: 'created', published: true });
    const publishedAt = defined(defined(await repo.findVersion('slow-publish'), 'the new version').publishedAt, 'its publication time').getTime();
    // The database runs on this machine: its clock is this one (milliseconds stored).
    expect(publishedAt).toBeGreaterThanOrEqual(started + holdMs);
    expect(publishedAt).toBeLessThanOrEqual(committed);
    // Halfway through the write, the old version was still the one every reader saw.
    expect((await repo.findVersionCurrentAt(new Date(started + holdMs / 2)))?.id).toBe(before.id);
    expect((await repo.findVersionCurrentAt(new Date(committed)))?.label).toBe('slow-publish');
    await ctx.app.get(CatalogImportService).publish(before.id);
  });

  it('rejects a value with more digits than are stored, naming file, line and field', async () => {
    const file = path.join(dir, 'fine.yaml');
    await writeFile(
      file,
      `offers:\n  - provider: aws\n    region: "aws:us-east-1"\n    gpu: h100-sxm-80gb\n    gpuCount: 8\n    instanceType: p5.48xlarge\n` +
        `    pricingModel: ON_DEMAND\n    pricePerHour: "55.1234567890123456"\n    currency: USD\n    priceKind: LIST\n    sourceKind: PROVIDER_API\n` +
        `    source: "https://example.org/test"\n    observedAt: "2026-11-30"\n`,
    );
    const r = await importer(file, '--merge');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${path.relative(process.cwd(), file)}:8 pricePerHour: must have at most 15 digits after the decimal point (stored exactly)`);
  });

  it('refuses a source that is not an http(s) URL, naming file, line and field, and imports nothing', async () => {
    const file = path.join(dir, 'script-source.yaml');
    await writeFile(
      file,
      `offers:\n  - provider: aws\n    region: "aws:us-east-1"\n    gpu: h100-sxm-80gb\n    gpuCount: 8\n    instanceType: p5.48xlarge\n` +
        `    pricingModel: ON_DEMAND\n    pricePerHour: "55.00"\n    currency: USD\n    priceKind: LIST\n    sourceKind: PROVIDER_API\n` +
        `    source: "javascript:alert(document.cookie)"\n    observedAt: "2026-11-30"\n`,
    );
    const repo = ctx.app.get(CatalogRepository);
    const before = await repo.findLatestVersion();
    const r = await importer(file, '--merge', '--publish');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${path.relative(process.cwd(), file)}:12 source: must be an http:// or https:// URL`);
    expect((await repo.findLatestVersion())?.id).toBe(before?.id);
  });
});
