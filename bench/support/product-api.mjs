// The product's REST api as a bench calls it: JSON in and out, a bearer token when given, and
// an error naming the call when the answer is not a success.

/** A caller of `${base}/api/v1…`. */
export function productApi(base) {
  return async function api(pathname, { method = 'GET', token, body } = {}) {
    const res = await fetch(`${base}/api/v1${pathname}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}
