import axios, { AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import type { AuthSession } from './auth-session.js';

type RetriableConfig = InternalAxiosRequestConfig & { _tesseraRetried?: boolean };

/**
 * An axios client for one service: Bearer header and credentials on every
 * request; on a 401, one refresh through the cookie and the request repeated
 * once; when the refresh fails or the 401 persists, the session signs out.
 */
export function createHttpClient(session: AuthSession, baseURL: string): AxiosInstance {
  // withXSRFToken false: the api authenticates with bearer tokens, not an XSRF cookie — and axios,
  // when it may send one, first asks the browser's cookie store asynchronously, so every request left
  // only after the main thread was free again (a windowed grid's row read waited for the grid's redraw).
  const client = axios.create({ baseURL, withCredentials: true, withXSRFToken: false });

  client.interceptors.request.use((config) => {
    const token = session.token();
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });

  client.interceptors.response.use(undefined, async (error: unknown) => {
    if (!(error instanceof AxiosError) || error.response?.status !== 401 || !error.config) throw error;
    const config = error.config as RetriableConfig;
    if (config._tesseraRetried) {
      session.signOut();
      throw error;
    }
    const token = await session.refresh();
    if (!token) {
      session.signOut();
      throw error;
    }
    config._tesseraRetried = true;
    config.headers.set('Authorization', `Bearer ${token}`);
    return client.request(config);
  });

  return client;
}
