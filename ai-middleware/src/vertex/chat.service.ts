import {
  AI_CONVERSATION_CONTEXT,
  type ConversationTurn,
  type EnhancedConversationRequest,
  type VertexChatReply,
  type WorkspaceSheet,
} from '@tessera/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { GitFileText } from '../hybrid/git-files.js';
import { ClientGoneError } from '../hybrid/request-abort.js';
import type { AiProvider } from '../providers/provider.js';
import type { SessionService } from '../sessions/session.service.js';
import { buildChatMessages, type ChatContext } from './chat-prompt.js';
import type { GitContextReader } from './git-context.js';
import { readSheetActivity } from './sheet-activity.js';

export interface ChatCall {
  userId: string;
  /** The caller's Authorization header, forwarded to the api for the sheet's history. */
  authorization: string;
  /** Which route: kept with the stored messages. */
  route: 'chat' | 'stream' | 'enhanced-conversation';
  body: EnhancedConversationRequest;
  /** Aborted with ClientGoneError (Stop) or StreamTimeoutError (the 10 minutes): see hybrid/request-abort.ts. */
  signal: AbortSignal;
  onChunk?: (text: string) => void;
}

export interface ChatResult {
  text: string;
  /** True when the client stopped the stream before the provider finished. */
  stopped: boolean;
  context: VertexChatReply['context'];
}

export interface ChatServiceDeps {
  provider: AiProvider;
  sessions: SessionService;
  git: GitContextReader;
  /** The selected git files' text (the hybrid routes' reader). */
  readGitFiles: (paths: string[]) => Promise<GitFileText[]>;
  apiUrl: string;
  log: FastifyBaseLogger;
}

/**
 * One chat turn on the provider (the /vertex/* calls): gathers the workspace context (the
 * sheet and selection the client sends, the repository's branch, commits and selected files,
 * the sheet's recent versions from the api), adds the session's last ten messages, streams
 * the reply, and stores the turn in the session.
 */
export class ChatService {
  constructor(private readonly deps: ChatServiceDeps) {}

  get provider(): AiProvider {
    return this.deps.provider;
  }

  /** Throws SessionNotFoundError unless the session is the user's, SessionQuotaError when it is full (the turn could not be stored). */
  async checkSession(userId: string, sessionId: string): Promise<void> {
    await this.deps.sessions.checkRoom(userId, sessionId);
  }

  /** Throws SessionNotFoundError, ProviderError, or the signal's reason (but ClientGoneError: then the reply so far is kept). */
  async run(call: ChatCall): Promise<ChatResult> {
    const { body, signal } = call;
    // The session must be the user's before anything is asked of the provider (404 otherwise).
    const stored = body.session_id ? await this.deps.sessions.lastMessages(call.userId, body.session_id, AI_CONVERSATION_CONTEXT) : null;
    const context = await this.gatherContext(call, stored);
    const messages = buildChatMessages(body.message, context);

    let text = '';
    try {
      for await (const chunk of this.deps.provider.stream(messages, { signal, temperature: body.temperature })) {
        if (signal.aborted) break;
        text += chunk;
        call.onChunk?.(chunk);
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    if (signal.aborted && !(signal.reason instanceof ClientGoneError)) throw signal.reason;
    const stopped = signal.aborted;

    if (body.session_id) {
      const metadata = { route: call.route, provider: this.deps.provider.name, model: this.deps.provider.model, ...(stopped ? { stopped: true } : {}) };
      await this.deps.sessions.append(call.userId, body.session_id, [
        { role: 'user', content: body.message, metadata: { route: call.route } },
        // A stopped reply is kept as far as the user saw it.
        ...(text ? [{ role: 'assistant' as const, content: text, metadata }] : []),
      ], { sheet: context.sheet?.name ?? null });
    }
    return {
      text,
      stopped,
      context: {
        messages: context.history.length,
        sheet: context.sheet?.name ?? context.sheet?.id ?? null,
        git_commits: context.git.recent_commits?.length ?? 0,
      },
    };
  }

  private async gatherContext(call: ChatCall, stored: { role: ConversationTurn['role']; content: string; created_at: string }[] | null): Promise<ChatContext> {
    const { body } = call;
    const workspace = body.workspace_context;
    const sheet: WorkspaceSheet | null = workspace?.current_sheet ?? body.sheet_context ?? null;
    const clientGit = workspace?.git_context;
    const selected = clientGit?.selected_files ?? [];
    const warn = (what: string) => (err: unknown) => {
      this.deps.log.warn({ err }, `chat: ${what} could not be read for the context`);
      return null;
    };
    const [repo, files, sheetActivity] = await Promise.all([
      this.deps.git.read().catch(warn('the repository')),
      this.deps.readGitFiles(selected).catch(warn('the selected git files')),
      sheet?.id ? readSheetActivity(this.deps.apiUrl, sheet.id, call.authorization) : Promise.resolve(null),
    ]);
    if (sheetActivity?.problem) this.deps.log.info({ problem: sheetActivity.problem }, 'chat: no sheet history in the context');
    // The repository is the authority on branch and commits; the client's modified files are kept.
    const git = { ...clientGit, ...(repo ?? {}), selected_files: selected };
    const commitActivities = (repo?.recent_commits ?? []).map((c) => ({
      description: `${c.author ?? 'Someone'} committed "${c.message.split('\n')[0]}"`,
      ...(c.timestamp ? { timestamp: c.timestamp } : {}),
    }));
    const activities = [...(workspace?.recent_activities ?? []), ...(sheetActivity?.activities ?? []), ...commitActivities];
    // The session's own record wins over what the client says the conversation was.
    const history: ConversationTurn[] =
      stored && stored.length > 0
        ? stored.map((m) => ({ role: m.role, content: m.content, timestamp: m.created_at }))
        : (body.conversation_context ?? []).slice(-AI_CONVERSATION_CONTEXT);
    return {
      sheet,
      git,
      files: files ?? [],
      activities,
      functions: workspace?.selected_functions ?? [],
      history,
      ...(body.preferences ? { preferences: body.preferences } : {}),
    };
  }
}
