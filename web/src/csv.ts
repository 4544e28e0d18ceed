// CSV of what a table shows, RFC 4180 (fields quoted when they hold a comma, a quote or a line
// break; CRLF line ends), with the same defusing of spreadsheet formulas as the API's own CSV
// (src/modules/offers/offers-csv.ts): free text starting with = + - @ gets a leading '.
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [header, ...rows].map((row) => row.map((v) => csvField(String(v))).join(',')).join('\r\n') + '\r\n';
}

export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && Number.isNaN(Number(value)) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
