// Catalog sources become links. The import takes only http(s) URLs (catalog-rows.ts), but the
// dashboard does not rely on it: a javascript: or data: href would run in this origin when clicked.

/** The value as an href when it is an absolute http(s) URL, else undefined (shown as text). */
export function httpHref(value: string | null | undefined): string | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  // The value as written: the dashboard shows the catalog's URL, not a normalised one.
  return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
}
