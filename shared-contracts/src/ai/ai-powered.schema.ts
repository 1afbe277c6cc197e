/**
 * Agent • AI Powered and the model providers (spec 02 §4 Chat modes, §5, DESIGN.md § AI).
 * The texts are shared so the chat panel and its tests read the server's exact words.
 */

/** Spec 02 §5: the instruction an empty prompt stands for in each agent mode. */
export const DIRECT_EXEC_DEFAULT_INSTRUCTION = 'Execute the code directly';
export const AI_POWERED_DEFAULT_INSTRUCTION = 'Analyze and process the provided data and code';

/** The providers AI_PROVIDER chooses from. */
export const AI_PROVIDER_NAMES = ['builtin', 'openai', 'vertex'] as const;

/**
 * builtin's honest reply to what it cannot do (it never pretends to be a model): what it can
 * do without one, and how to configure one.
 */
export const NO_MODEL_CONFIGURED_MESSAGE =
  'No AI model is configured on this server (AI_PROVIDER=builtin), so I cannot answer that. ' +
  'Without a model, Agent • AI Powered handles these requests on the active sheet: ' +
  '"describe" or "summarize <column>" (count, sum, mean, min, max, distinct), ' +
  '"total of <column> by <column>", "sort by <column> [descending]", ' +
  '"filter rows where <column> <operator> <value>" and "top <N> by <column>". ' +
  'To use a model, an administrator sets AI_PROVIDER=openai with AI_BASE_URL, AI_MODEL and AI_API_KEY ' +
  '(any OpenAI-compatible endpoint: OpenAI, Ollama, vLLM, llama.cpp server), or AI_PROVIDER=vertex ' +
  'with AI_API_KEY (Gemini), and restarts the ai-middleware.';

/** Fixes the model is asked for after its code raised (spec 02 §9: retries 3). */
export const AI_POWERED_MAX_FIXES = 3;

/** The failure when every attempt raised: the last error follows. */
export const aiPoweredFailedMessage = (attempts: number, lastError: string) =>
  `The code still failed after ${attempts} attempts: ${lastError}`;

/** The model's reply held no Python code block. */
export const NO_CODE_IN_REPLY = 'The model replied without a Python code block';
