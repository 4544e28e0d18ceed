// The catalog: its versions, the current one marked, and what changed between two of them.
import { useEffect, useState } from 'preact/hooks';
import { graphql, request, type ResultOf } from '../graphql';
import { described, ErrorBox, Field, label, Loading, money, TableScroll, useRequest } from '../ui';
import { fromParams, toParams } from '../url-state';

const VersionsQuery = graphql(`
  query Versions {
    catalogVersions {
      id
      label
      current
      publishedAt
      createdAt
      offerCount
      source
      notes
    }
  }
`);

const DiffQuery = graphql(`
  query Diff($from: String!, $to: String!) {
    catalogDiff(from: $from, to: $to) {
      from {
        label
      }
      to {
        label
      }
      unchangedOffers
      added {
        ...Key
      }
      removed {
        ...Key
      }
      changed {
        id
        provider
        region
        instanceType
        gpu
        pricingModel
        oldPricePerHour {
          amount
          currency
        }
        newPricePerHour {
          amount
        }
        changePct
        otherChanges
      }
    }
  }
  fragment Key on OfferKey {
    id
    provider
    region
    instanceType
    gpu
    gpuCount
    pricingModel
    pricePerHour {
      amount
      currency
    }
  }
`);

const DEFAULTS = { from: '', to: '' };

type Version = ResultOf<typeof VersionsQuery>['catalogVersions'][number];
type Diff = ResultOf<typeof DiffQuery>['catalogDiff'];
type DiffForm = typeof DEFAULTS;

export function CatalogView(props: { params: URLSearchParams; onParams: (p: URLSearchParams) => void }) {
  const initial = fromParams(props.params, DEFAULTS);
  const [form, setForm] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const versions = useRequest('versions', (signal) => request(VersionsQuery, {}, signal));
  const diffKey = applied.from && applied.to ? JSON.stringify(applied) : null;
  const diff = useRequest(diffKey, (signal) => request(DiffQuery, applied, signal));
  const list = versions.data?.catalogVersions ?? [];
  // Without a pair in the URL, the diff shows what the newest version changed.
  useEffect(() => {
    const [newest, previous] = versions.data?.catalogVersions ?? [];
    if (applied.from || applied.to || !newest || !previous) return;
    const pair = { from: previous.label, to: newest.label };
    setForm(pair);
    setApplied(pair);
  }, [versions.data]);
  const errFor = (name: 'from' | 'to') => {
    const e = diff.error;
    if (!e) return undefined;
    const field = e.forField(name);
    if (field) return field;
    // The service names the version it could not find in the message.
    return e.code === 'NOT_FOUND' && e.message.includes(`"${applied[name]}"`) ? e.message : undefined;
  };
  const d = diff.data?.catalogDiff;

  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog versions</h1>
      <Loading active={versions.loading} what="the versions" />
      <ErrorBox error={versions.error} />
      <VersionsTable list={list} />
      <h2>Compare two versions</h2>
      <CompareForm
        form={form}
        setForm={setForm}
        list={list}
        errFor={errFor}
        loading={diff.loading}
        onSubmit={() => {
          setApplied(form);
          props.onParams(toParams(form, DEFAULTS));
        }}
      />
      <Loading active={diff.loading} what="the diff" />
      <ErrorBox error={diff.error} shownAtFields={!!(errFor('from') ?? errFor('to'))} />
      {d && <DiffResult d={d} />}
    </section>
  );
}

/** Every version, the current one marked. */
function VersionsTable({ list }: { list: readonly Version[] }) {
  return (
    <TableScroll label="Catalog versions">
      <table data-testid="versions-table">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Published</th>
            <th scope="col">Offers</th>
            <th scope="col">Source</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {list.map((v) => (
            <tr key={v.id} class={v.current ? 'current' : ''} aria-current={v.current ? 'true' : undefined}>
              <th scope="row">
                {v.label} {v.current && <span class="badge">current</span>}
              </th>
              <td>{v.publishedAt ? v.publishedAt.slice(0, 16).replace('T', ' ') : 'not published'}</td>
              <td class="num">{v.offerCount}</td>
              <td>{v.source}</td>
              <td>{v.notes ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The two versions to compare, suggested from the list. */
function CompareForm(props: {
  form: DiffForm;
  setForm: (form: DiffForm) => void;
  list: readonly Version[];
  errFor: (name: 'from' | 'to') => string | undefined;
  loading: boolean;
  onSubmit: () => void;
}) {
  const { form, errFor } = props;
  return (
    <form
      class="form"
      noValidate
      aria-label="Versions to compare"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {(['from', 'to'] as const).map((name) => (
        <Field key={name} id={`diff-${name}`} label={name === 'from' ? 'From (id or label)' : 'To (id or label)'} error={errFor(name)}>
          <input
            {...described(`diff-${name}`, errFor(name))}
            list="version-labels"
            value={form[name]}
            onInput={(e) => props.setForm({ ...form, [name]: e.currentTarget.value })}
          />
        </Field>
      ))}
      <datalist id="version-labels">
        {props.list.map((v) => (
          <option key={v.id} value={v.label} />
        ))}
      </datalist>
      <div class="actions">
        <button type="submit" disabled={props.loading}>
          Compare
        </button>
      </div>
    </form>
  );
}

/** What changed between the two versions: counts, then the added, removed and changed offers. */
function DiffResult({ d }: { d: Diff }) {
  return (
    <div data-testid="diff">
      <p class="meta">
        From {d.from.label} to {d.to.label}: {d.added.length} added, {d.removed.length} removed, {d.changed.length} changed, {d.unchangedOffers} unchanged.
      </p>
      {(
        [
          ['Added', d.added],
          ['Removed', d.removed],
        ] as const
      ).map(([title, rows]) => (rows.length ? <KeyRows key={title} title={title} rows={rows} /> : null))}
      {d.changed.length > 0 && <ChangedTable changed={d.changed} />}
    </div>
  );
}

/** Offers added or removed, folded away. */
function KeyRows({ title, rows }: { title: string; rows: Diff['added'] }) {
  return (
    <details>
      <summary>
        {title} ({rows.length})
      </summary>
      <TableScroll label={`${title} offers`}>
        <table>
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Region</th>
              <th scope="col">Instance</th>
              <th scope="col">GPU</th>
              <th scope="col">Pricing model</th>
              <th scope="col">Price per hour</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.provider}</td>
                <td>{r.region}</td>
                <td>{r.instanceType}</td>
                <td>
                  {r.gpuCount} × {r.gpu}
                </td>
                <td>{label(r.pricingModel)}</td>
                <td class="num">{money(r.pricePerHour.amount, r.pricePerHour.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}

/** Offers in both versions whose price or terms changed. */
function ChangedTable({ changed }: { changed: Diff['changed'] }) {
  return (
    <TableScroll label="Changed offers">
      <table>
        <caption>Changed ({changed.length})</caption>
        <thead>
          <tr>
            <th scope="col">Offer</th>
            <th scope="col">Old price per hour</th>
            <th scope="col">New</th>
            <th scope="col">Change</th>
            <th scope="col">Other changes</th>
          </tr>
        </thead>
        <tbody>
          {changed.map((c) => (
            <tr key={c.id}>
              <td>
                {c.provider} {c.instanceType} {c.region} ({label(c.pricingModel)})
              </td>
              <td class="num">{money(c.oldPricePerHour.amount, c.oldPricePerHour.currency)}</td>
              <td class="num">{money(c.newPricePerHour.amount)}</td>
              <td class="num">{c.changePct ?? '–'} %</td>
              <td>{c.otherChanges.join('; ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
