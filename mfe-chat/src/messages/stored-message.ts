import { type ChatMessageRecord, CodeRunResultSchema } from '@tessera/contracts';
import type { ChatMessage } from './chat-message.js';

const { figures: FiguresSchema, figures_omitted: CountSchema } = CodeRunResultSchema.shape;

/** A stored message (a session switched to, or the one a reload comes back to) as the panel shows it, its figures included. */
export function messageFromRecord(record: ChatMessageRecord): ChatMessage {
  const message: ChatMessage = { id: record.id, role: record.role, content: record.content, createdAt: record.created_at };
  // Checked as strictly as a live reply's figures: they become images. What does not pass is left out.
  const figures = FiguresSchema.safeParse(record.metadata.figures).data;
  const omitted = CountSchema.safeParse(record.metadata.figures_omitted).data;
  const notKept = CountSchema.safeParse(record.metadata.figures_not_kept).data;
  if (figures?.length || omitted || notKept) {
    message.metadata = {
      ...(figures?.length ? { figures } : {}),
      ...(omitted ? { figuresOmitted: omitted } : {}),
      ...(notKept ? { figuresNotKept: notKept } : {}),
    };
  }
  return message;
}
