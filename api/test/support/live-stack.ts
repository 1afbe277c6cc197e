import assert from 'node:assert/strict';
import { type GridData, SheetSchema } from '@tessera/contracts';
import { LiveClient, listen } from '../live-client.js';
import { type ApiClient, apiClient } from './api-client.js';
import { signupAdmin } from './auth-helpers.js';
import { signedInMember } from './members.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The live socket tests' api: listening on loopback, with an admin and a member (bob). */
export interface LiveStack {
  t: TestApp;
  /** The http://127.0.0.1:port the sockets connect to. */
  base: string;
  admin: { accessToken: string; userId: string };
  bob: { accessToken: string; userId: string; username: string };
  /** REST as the admin. */
  api: ApiClient;
}

export async function startLiveStack(): Promise<LiveStack> {
  const t = await createTestApp();
  const admin = await signupAdmin(t.app);
  const bob = await signedInMember(t.app, 'user');
  return { t, admin, bob, api: apiClient(t.app, admin.accessToken), base: await listen(t.app) };
}

/** Closes the sockets a test file opened, then the app. */
export async function closeLiveStack(t: TestApp, open: { close(): Promise<unknown> }[]): Promise<void> {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
}

/** A sheet whose cells say where they started ("r0c0" ...): column 0 names each row. */
export const labelledGrid = (rows: number, cols: number): GridData => Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => `r${r}c${c}`));

/**
 * The live tests' sheet tools over the stack `stack()` gives once started: sheets made (named
 * `prefix` and a random tail) and read whole over REST as the admin, clients joined (kept in `open`
 * for closeLiveStack), operations sent, and committed (sent, the ack's version answered).
 */
export function liveSheetTools(stack: () => LiveStack, open: LiveClient[], prefix: string) {
  const send = (c: LiveClient, sheetId: string, operation: object) => c.send({ type: 'operation', sheet_id: sheetId, operation });
  return {
    sheet: async (data: GridData) => {
      const res = await stack().api.post('/api/v1/sheets', { name: `${prefix} ${Math.random().toString(36).slice(2, 8)}`, data });
      assert.equal(res.statusCode, 201, res.body);
      return SheetSchema.parse(res.json());
    },
    server: async (id: string) => SheetSchema.parse((await stack().api.get(`/api/v1/sheets/${id}`)).json()),
    join: async (sheetId: string, token: string, label: string, since: number) => {
      const c = await LiveClient.join(stack().base, sheetId, token, { since, label });
      open.push(c);
      return c;
    },
    send,
    /** Sends and waits for the ack: the version it made. */
    commit: async (c: LiveClient, sheetId: string, operation: { id: string; [field: string]: unknown }) => {
      send(c, sheetId, operation);
      return (await c.next('ack', (f) => f.data.operation_id === operation.id)).data.version;
    },
  };
}
