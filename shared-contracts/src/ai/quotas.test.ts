import { HybridReplyEventSchema } from './chat-panel.schema.js';
import { jobQueuedEvent } from './hybrid-events.js';
import { HYBRID_STAGES, HybridStreamEventSchema } from './hybrid.schema.js';
import { JOB_QUEUE_FULL_MESSAGE, QUOTA_TEXTS, jobQueuedText, megabytes } from './quotas.js';

test("the queue's texts are the issue's words", () => {
  expect(JOB_QUEUE_FULL_MESSAGE).toBe('Too many jobs waiting; try again in a moment');
  expect(jobQueuedText(3)).toBe('Waiting in queue (position 3)');
});

test('a queued event is a valid stream event (the service) and a valid reply event (the panel), outside the spec five stages', () => {
  const event = jobQueuedEvent(2);
  expect(HybridStreamEventSchema.parse(event)).toEqual(event);
  expect(HybridReplyEventSchema.parse(event).metadata).toMatchObject({ stage: 'queued', progress: 0, queue_position: 2 });
  expect(event.metadata.ui).toEqual({ text: 'Waiting in queue (position 2)', replace_last: true });
  expect(HYBRID_STAGES).not.toContain('queued');
  expect(HybridStreamEventSchema.safeParse({ ...event, metadata: { ...event.metadata, queue_position: 0 } }).success).toBe(false);
});

test('quota texts name the limit, sizes in MB', () => {
  expect(megabytes(5 * 1024 * 1024)).toBe('5');
  expect(megabytes(6.25 * 1024 * 1024)).toBe('6.3');
  expect(QUOTA_TEXTS.gitCommit(6.25 * 1024 * 1024, 5 * 1024 * 1024)).toBe('This commit adds 6.3 MB of file content; at most 5 MB can be committed at once');
  expect(QUOTA_TEXTS.proposals(50)).toBe('You have 50 open proposals on this sheet, the most one user may keep; accept or discard some first');
});
