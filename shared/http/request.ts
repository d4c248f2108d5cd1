/** What a use case may read of an HTTP request: headers by name, the body as text, the query. Nothing host-specific. */
export interface IncomingRequest {
  method: string;
  header(name: string): string | null;
  query: URLSearchParams;
  params: Record<string, string>;
  text(): Promise<string>;
}
