import {
  CHAT_SESSIONS_MAX,
  failedToCreateSession,
  failedToDeleteSession,
  failedToSwitchSession,
  type ChatMessageRecord,
  type ChatSession,
  type ShellContext,
} from '@tessera/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { httpFailure } from '../send/http-failure.js';
import { readCurrentSession, writeCurrentSession } from './current-session.js';
import { sessionsService } from './sessions.service.js';

export interface SessionsState {
  /** Most recently active first, at most 10 (spec 02 §9). */
  sessions: ChatSession[];
  currentId: string | null;
  loading: boolean;
  /** The list could not be read: context features are off (spec 02 §8). */
  unavailable: string | null;
  /** The last create, switch or delete failure. */
  error: string | null;
}

export interface Sessions extends SessionsState {
  current: ChatSession | null;
  create(name: string): Promise<boolean>;
  switchTo(sessionId: string): Promise<void>;
  remove(sessionId: string): Promise<void>;
  /** Re-reads the list (a reply changed a session's message count and last activity). */
  refresh(): Promise<void>;
}

const byLastActive = (a: ChatSession, b: ChatSession) => b.last_active.localeCompare(a.last_active);

/**
 * The session rules of spec 02 §4: a new session goes first (at most 10 kept) and becomes
 * current; switching sets the current one; deleting the current one moves to the most
 * recently active remaining session, else none. `onMessages` receives a switched-to
 * session's stored messages.
 */
export function useSessions(shell: ShellContext, onMessages: (messages: ChatMessageRecord[]) => void): Sessions {
  // Calls still running when the panel goes away are cancelled with it.
  // (Made in an effect: StrictMode's trial unmount must not leave it aborted.)
  const controller = useRef(new AbortController());
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => current.abort();
  }, []);
  const service = useMemo(() => sessionsService(shell.ai, shell.user.id, () => controller.current.signal), [shell.ai, shell.user.id]);
  const [state, setState] = useState<SessionsState>({ sessions: [], currentId: null, loading: true, unavailable: null, error: null });
  const onMessagesRef = useRef(onMessages);
  onMessagesRef.current = onMessages;

  const load = useCallback(
    async (keepCurrent: boolean) => {
      try {
        const sessions = [...(await service.list())].sort(byLastActive).slice(0, CHAT_SESSIONS_MAX);
        const listed = (id: string | null) => (id && sessions.some((x) => x.session_id === id) ? id : null);
        if (!keepCurrent) {
          // Opening the panel (a reload) comes back to the session the user was in, with its messages.
          const remembered = listed(readCurrentSession(shell.user.id));
          if (remembered) {
            const { session, messages } = await service.switchTo(remembered);
            setState((s) => ({ ...s, sessions: sessions.map((x) => (x.session_id === session.session_id ? session : x)).sort(byLastActive), loading: false, unavailable: null, currentId: remembered }));
            onMessagesRef.current(messages ?? []);
            return;
          }
        }
        setState((s) => ({
          ...s,
          sessions,
          loading: false,
          unavailable: null,
          currentId: (keepCurrent ? listed(s.currentId) : null) ?? sessions[0]?.session_id ?? null,
        }));
      } catch (error) {
        if (controller.current.signal.aborted) return;
        setState((s) => ({ ...s, loading: false, unavailable: httpFailure(error) }));
      }
    },
    [service, shell.user.id],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  useEffect(() => {
    if (!state.loading) writeCurrentSession(shell.user.id, state.currentId);
  }, [shell.user.id, state.currentId, state.loading]);

  const create = async (name: string): Promise<boolean> => {
    try {
      const { session } = await service.create(name.trim());
      setState((s) => ({
        ...s,
        error: null,
        currentId: session.session_id,
        sessions: [session, ...s.sessions.filter((x) => x.session_id !== session.session_id)].slice(0, CHAT_SESSIONS_MAX),
      }));
      onMessagesRef.current([]);
      return true;
    } catch (error) {
      setState((s) => ({ ...s, error: failedToCreateSession(httpFailure(error)) }));
      return false;
    }
  };

  const switchTo = async (sessionId: string) => {
    try {
      const { session, messages } = await service.switchTo(sessionId);
      setState((s) => ({
        ...s,
        error: null,
        currentId: session.session_id,
        sessions: s.sessions.map((x) => (x.session_id === session.session_id ? session : x)).sort(byLastActive),
      }));
      onMessagesRef.current(messages ?? []);
    } catch (error) {
      setState((s) => ({ ...s, error: failedToSwitchSession(httpFailure(error)) }));
    }
  };

  const remove = async (sessionId: string) => {
    try {
      await service.remove(sessionId);
      setState((s) => {
        const sessions = s.sessions.filter((x) => x.session_id !== sessionId);
        const currentId = s.currentId === sessionId ? ([...sessions].sort(byLastActive)[0]?.session_id ?? null) : s.currentId;
        return { ...s, error: null, sessions, currentId };
      });
    } catch (error) {
      setState((s) => ({ ...s, error: failedToDeleteSession(httpFailure(error)) }));
    }
  };

  return {
    ...state,
    current: state.sessions.find((x) => x.session_id === state.currentId) ?? null,
    create,
    switchTo,
    remove,
    refresh: () => load(true),
  };
}
