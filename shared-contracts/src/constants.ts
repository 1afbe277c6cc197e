/** Business constants and limits of spec 01 §9 and spec 02 §9, named once. */

// Sheets and navigation (spec 01 §9)
export const SHEET_LIST_PAGE_SIZE = 50;
export const RECENT_SHEETS_LIMIT = 10;
export const RECENT_WINDOW_DAYS = 7;
export const SHEET_NAME_MAX_LENGTH = 100;
export const NEW_SHEET_DEFAULT = { rows: 10, columns: 10 } as const;
export const NEW_SHEET_IN_GROUP_DEFAULT = { rows: 20, columns: 10 } as const;
export const NEW_SHEET_EDITOR_DEFAULT = { rows: 50, columns: 26 } as const;
export const DEFAULT_GROUP_NAME = 'New Group';
export const DEFAULT_SHEET_NAME = 'New Sheet';
export const DEFAULT_IMPORT_NAME = 'Imported Sheet';
export const GROUP_BADGE_CAP = 20;
export const GROUP_BADGE_CAP_LABEL = '20+';
export const CATEGORY_NAMES = ['Financial', 'Project Management', 'Operations', 'Analytics', 'General'] as const;
export const EXPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export const IMPORT_ACCEPT = ['.csv', '.xlsx'] as const;
export const FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

// Retries (spec 01 §9)
export const SHEET_SERVICE_RETRY = { attempts: 3, delaysMs: [1000, 2000] } as const;
export const NAVIGATION_SERVICE_RETRY = { attempts: 3, delaysMs: [1000, 2000] } as const;

// Health and ports (spec 01 §9)
export const HEALTH_CHECK_INTERVAL_MS = 30_000;
export const HEALTH_CHECK_TIMEOUT_MS = 5_000;
export const API_PORT = 8083;
export const AI_MIDDLEWARE_PORT = 8081;
export const SHELL_PORT = 3000;
export const REMOTE_PORTS = { 'mfe-sheets': 3001, 'mfe-chat': 3002, 'mfe-git': 3003, 'mfe-members': 3004 } as const;

// Live connection (spec 01 §9)
export const RECONNECT_BASE_DELAY_MS = 1000;
export const RECONNECT_MAX_DELAY_MS = 30_000;
export const PRESENCE_TOAST_MS = 5000;

// Layout (spec 01 §9)
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_ICON_WIDTH = '3rem';
export const SIDEBAR_MOBILE_WIDTH = '18rem';
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

// Auth
export const AUTH_TOKEN_STORAGE_KEY = 'auth_token';
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_COOKIE_NAME = 'tessera_refresh';

// AI (spec 02 §9)
export const CHAT_MAX_MESSAGES = 50;
/**
 * Spec 02 §9: a chat result's text is shown truncated to 200 or 400 characters, with a way to
 * see all: 200 beside a grid (the grid is the result), 400 when the printed text is the result.
 */
export const CHAT_RESULT_PREVIEW_CHARS = { withGrid: 200, alone: 400 } as const;
export const CHAT_SESSIONS_MAX = 10;
export const STREAM_TIMEOUT_MS = 600_000;
export const CAPABILITY_DISCOVERY_TIMEOUT_MS = 30_000;
export const AI_RETRIES = 3;
export const MAX_SOLVER_RETRIES = 3;
export const CHAT_PANEL_WIDTH = { default: 384, min: 320, max: 800 } as const;
/** Where the shell remembers the chat panel's width (local storage), across reloads. */
export const CHAT_PANEL_WIDTH_STORAGE_KEY = 'tessera.chatPanelWidth';
/** Where the chat panel remembers the current session (spec 02 §3), suffixed with the user's id. */
export const CHAT_CURRENT_SESSION_STORAGE_KEY = 'tessera.chatSession';
export const CHAT_INPUT_MAX_HEIGHT_PX = 120;
export const AI_SAMPLE_ROWS = 5;
export const AI_CONVERSATION_CONTEXT = 10;
export const AI_TEMPERATURE = 0.7;
export const AI_SUPPORTED_FILE_FORMATS = ['csv', 'tsv', 'json', 'xlsx'] as const;

// Git and history (spec 02 §9)
export const HISTORY_PAGE_SIZE = 50;
export const COMMIT_GRAPH_LIMIT = 200;
export const SNAPSHOT_LIST_LIMIT = 60;
export const FILE_TREE_CAP = 300;
export const DEFAULT_GIT_BRANCH = 'main';
export const EMPTY_COMMIT_RETRY_DELAY_MS = 300;

// Grid licence (spec 02 §9: the non-commercial key)
export const HANDSONTABLE_LICENSE_KEY = 'non-commercial-and-evaluation';
/** HyperFormula (the grid's formula engine) under its GPLv3 licence. */
export const HYPERFORMULA_LICENSE_KEY = 'gpl-v3';

// Workspace (spec 01 §4)
/** sheet-loaded is emitted this long after a sheet finished loading. */
export const SHEET_LOADED_EVENT_DELAY_MS = 200;
