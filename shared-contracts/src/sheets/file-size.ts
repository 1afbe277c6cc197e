import { FILE_SIZE_UNITS } from '../constants.js';

/**
 * A size in bytes as people read it (spec 01 §9: units B, KB, MB, GB; 1 KB = 1,024 B): whole bytes,
 * then one decimal below 10 of a unit ('1.5 KB', '9.9 MB') and whole units from 10 ('12 KB').
 */
export function fileSizeLabel(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // 1023.96 KB rounds to 1024 KB: say 1.0 MB instead.
  if (Math.round(value) >= 1024 && unit < FILE_SIZE_UNITS.length - 1) return `1.0 ${FILE_SIZE_UNITS[unit + 1]}`;
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${FILE_SIZE_UNITS[unit]}`;
}
