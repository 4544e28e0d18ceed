// The dashboard: five views behind a hash route (#/offers, #/estimate, #/measured, #/history, #/catalog), each
// keeping its form in the route's query so that a link reproduces the view.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKeyStore } from './graphql';
import { hashOf, parseHash } from './url-state';
import { CatalogView } from './views/Catalog';
import { EstimateView } from './views/Estimate';
import { HistoryView } from './views/History';
import { MeasuredView } from './views/Measured';
import { OffersView } from './views/Offers';

const VIEWS = [
  { id: 'offers', title: 'Offers', View: OffersView },
  { id: 'estimate', title: 'Estimate planner', View: EstimateView },
  { id: 'measured', title: 'Measured', View: MeasuredView },
  { id: 'history', title: 'Price history', View: HistoryView },
  { id: 'catalog', title: 'Catalog', View: CatalogView },
] as const;

function App() {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const current = VIEWS.find((v) => v.id === route[0]) ?? VIEWS[0];
  useEffect(() => {
    document.title = `${current.title} · GPU cost dashboard`;
  }, [current]);
  // The form's state goes into the address without a new history entry or a re-render.
  const onParams = (params: URLSearchParams) => history.replaceState(null, '', hashOf(current.id, params));

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header>
        <p class="brand">GPU cost</p>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.id}>
                <a href={`#/${v.id}`} aria-current={v.id === current.id ? 'page' : undefined}>
                  {v.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <ApiKey />
      </header>
      <main id="main" tabIndex={-1}>
        {/* A new key per view remounts it with the state of its URL. */}
        <current.View key={current.id} params={route[1]} onParams={onParams} />
      </main>
      <footer>
        <p>
          Prices are public list prices with their sources; every answer names its catalog version. API: <a href="/docs">REST (OpenAPI)</a>,{' '}
          <a href="/graphql">GraphQL</a>.
        </p>
      </footer>
    </>
  );
}

/** For services with AUTH_MODE=required: the key is kept for this tab only. */
function ApiKey() {
  const [key, setKey] = useState(apiKeyStore.get());
  return (
    <details class="api-key">
      <summary>API key</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apiKeyStore.set(key.trim());
          location.reload();
        }}
      >
        <label for="api-key">Key (kept for this tab)</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <button type="submit">Use</button>
      </form>
    </details>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
