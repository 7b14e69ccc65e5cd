// The floor for a request: the same POST with Node's global `fetch`, same body, same headers, same
// server; the response body is read and parsed as JSON, as any client has to.

export function createBareFetchClient({ baseUrl, apiKey }) {
  const url = new URL('/api/payment/payment-initiate-callback/', baseUrl).href;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    authorization: `Bearer ${apiKey}`,
  };
  return async function initiate(wireBody) {
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(wireBody) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
}
