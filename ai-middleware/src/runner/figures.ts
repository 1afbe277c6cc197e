import { CODE_RUN_FIGURE_MAX_BYTES, CODE_RUN_FIGURE_MAX_SIDE_PX, CODE_RUN_MAX_FIGURES, type CodeRunFigure } from '@tessera/contracts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A PNG's size from its header, or null when the bytes are no PNG (or too large a one). */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.length > CODE_RUN_FIGURE_MAX_BYTES) return null;
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width < 1 || height < 1 || width > CODE_RUN_FIGURE_MAX_SIDE_PX || height > CODE_RUN_FIGURE_MAX_SIDE_PX) return null;
  return { width, height };
}

/**
 * The figures a job sent, checked as input from outside (the sandbox runs untrusted code that can
 * write any line): base64 of a real PNG header within the bytes, side and count caps. What fails a
 * check is left out and counted, like a figure past the caps.
 */
export function checkedFigures(sent: string[] | undefined, omittedBySandbox = 0): { figures?: CodeRunFigure[]; figures_omitted?: number } {
  const figures: CodeRunFigure[] = [];
  let omitted = omittedBySandbox;
  for (const data of sent ?? []) {
    const size = figures.length < CODE_RUN_MAX_FIGURES && data.length <= Math.ceil(CODE_RUN_FIGURE_MAX_BYTES / 3) * 4 && BASE64.test(data)
      ? pngSize(Buffer.from(data, 'base64'))
      : null;
    if (size) figures.push({ mime: 'image/png', data, ...size });
    else omitted += 1;
  }
  return { ...(figures.length ? { figures } : {}), ...(omitted > 0 ? { figures_omitted: omitted } : {}) };
}
