import type { CodeRunFigure, GitHistoryLink, HybridStage } from '@tessera/contracts';

/** A sheet a reply created, offered as a link in its message. */
export interface CreatedSheetRef {
  id: string;
  name: string;
}

/** A chart the AI made (issue 20), which the message links to. */
export interface ChartRef {
  sheetId: string;
  chartId: string;
  title: string;
}

/** Chat message (spec 02 §3) as the panel holds it. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  createdAt: string;
  /** Sent, no reply yet. */
  pending?: boolean;
  /** Its text is still arriving. */
  streaming?: boolean;
  stage?: HybridStage;
  progress?: number;
  metadata?: {
    /** Git files or commits the reply named (frontend_panels.git_history): links to the git tab. */
    gitLinks?: GitHistoryLink[];
    createdSheet?: CreatedSheetRef;
    /** The chart the AI made: 'Show chart' opens its sheet and shows it. */
    chart?: ChartRef;
    /** An error message, shown in the error colour. */
    error?: boolean;
    /** The whole printed output when the message shows only its start (spec 02 §9): 'Show all' opens it. */
    fullOutput?: string;
    /** The figures the code made (Matplotlib PNGs), in order, and how many were left out. */
    figures?: CodeRunFigure[];
    figuresOmitted?: number;
    /** Figures a stored answer had and no longer keeps (the member's oldest go past AI_FIGURES_PER_USER_MB). */
    figuresNotKept?: number;
  };
}

let counter = 0;
/** Ids unique within the page: messages are never sent to a server with them. */
export const nextMessageId = (): string => `m${Date.now().toString(36)}-${(counter++).toString(36)}`;
