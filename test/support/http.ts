// A plain HTTP request from a chosen loopback address, so a test can play several clients
// (the server sees a different socket address for each) without trusting any proxy header.
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown; body?: Buffer } = {},
): Promise<RawResponse> {
  const body = init.json === undefined ? init.body : JSON.stringify(init.json);
  const headers: Record<string, string> = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json: <T>() => JSON.parse(text) as T,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A FormData as raw bytes and the multipart content type that goes with them. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, body: Buffer.from(await res.arrayBuffer()) };
}

/** The JSON body of a fetch Response, typed loosely for assertions. */
export async function jsonOf<T = { code?: string; message?: string; title?: string } & Record<string, unknown>>(
  res: Response,
): Promise<T> {
  return (await res.json()) as T;
}

/** Lets anything the server started in the background (a mail being sent) finish. */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** A browser's cookie jar: later Set-Cookie headers replace earlier cookies of the same name. */
export function jar(...sources: Array<string | Response>): string {
  const cookies = new Map<string, string>();
  for (const source of sources) {
    const pairs =
      typeof source === 'string'
        ? source.split(';').map((p) => p.trim()).filter(Boolean)
        : source.headers.getSetCookie().map((c) => c.split(';')[0]!.trim());
    for (const pair of pairs) {
      const [name, ...value] = pair.split('=');
      if (value.join('=') === '') cookies.delete(name!);
      else cookies.set(name!, value.join('='));
    }
  }
  return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
