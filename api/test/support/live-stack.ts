import { listen } from '../live-client.js';
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
