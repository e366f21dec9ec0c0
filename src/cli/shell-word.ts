/**
 * A word as a shell reads it back, for commands printed to be copied:
 * plain when it is safe unquoted, else in double quotes, or single quotes
 * when it holds what double quotes would expand ($ ` \ " !).
 */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  if (!/[$`\\"!]/.test(word)) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
