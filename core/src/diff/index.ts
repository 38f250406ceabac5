/** `storage-perf diff`'s core: two analyses compared (./diff.ts), the record's types and its texts. */
export { diffAnalyses, type DiffInput } from './diff';
export { changeText, deltaText, missingPrices, moneyText, unreadLines } from './summary';
export type * from './types';
