// A CSV imported through POST /api/v1/import, as a user's upload: the new sheet's id and the time
// from the request to its answer.
export async function importCsv(base, token, name, text) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), `${name}.csv`);
  form.append('name', name);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`import ${name}: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { id: body.sheets[0].id, ms: performance.now() - t0 };
}
