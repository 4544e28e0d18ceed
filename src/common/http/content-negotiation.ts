import Negotiator from 'negotiator';

/** Does the Accept header prefer CSV to JSON? (JSON on a tie or without a header, as before.) */
export function prefersCsv(accept: string | undefined): boolean {
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/csv']) === 'text/csv';
}
