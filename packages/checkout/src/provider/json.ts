// A JSON object as the gateway's client API and the card frames send it. Apart from sandbox-client-api.ts so the
// card view's bundle takes this check alone, not the POST helper the flows imported on demand share (issue 10).

export type Json = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
