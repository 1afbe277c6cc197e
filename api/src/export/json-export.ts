import type { ExportSource } from './export-source.js';

/**
 * The JSON file ({ id, name, version, headers, data, metadata }), the rows spliced in from
 * each chunk's stored text without a parse: one piece per chunk.
 */
export function* jsonPieces(source: ExportSource): Generator<string> {
  const { summary } = source;
  yield `{"id":${JSON.stringify(summary.id)},"name":${JSON.stringify(summary.name)},"version":${summary.version},"headers":${JSON.stringify(summary.metadata.headers)},"data":[`;
  let first = true;
  for (let i = 0; i < source.chunks.length; i++) {
    const text = source.chunks[i] ?? '[]';
    source.chunks[i] = null;
    const inner = text.trim().slice(1, -1);
    if (inner.trim() === '') continue;
    yield first ? inner : `,${inner}`;
    first = false;
  }
  yield `],"metadata":${JSON.stringify(summary.metadata)}}`;
}
