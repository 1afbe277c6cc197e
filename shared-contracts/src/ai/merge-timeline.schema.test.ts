import { MergeTimelineSnapshotSchema } from './merge-timeline.schema.js';

test('merge_timeline’s snapshot is a proposal or an error, each with the sheet id', () => {
  expect(MergeTimelineSnapshotSchema.safeParse({ sheet_id: 's', version_id: 'v', status: 'proposed', base_version: 3 }).success).toBe(true);
  expect(MergeTimelineSnapshotSchema.safeParse({ sheet_id: 's', error: 'HTTP 404: {}' }).success).toBe(true);
  expect(MergeTimelineSnapshotSchema.safeParse({ sheet_id: 's' }).success).toBe(false);
});
