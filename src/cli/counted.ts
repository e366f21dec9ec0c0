/** A count and its noun as people write them: "1 row", "0 rows", "1,234 rows"; `plural` where an s is not it ("entries"). */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n.toLocaleString('en-GB')} ${n === 1 ? noun : plural}`;
