/**
 * A progress bar on standard error for long operations (statement rows,
 * migrated documents): the count done of the total and the percentage.
 * Only on a terminal; piped or redirected output gets none.
 */
export interface ProgressBar {
  readonly update: (done: number, total: number) => void;
  readonly end: () => void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar | undefined {
  if (stream.isTTY !== true) return undefined;
  let drawn = false;
  return {
    update(done, total) {
      const width = 30;
      const share = done / Math.max(total, 1);
      const filled = Math.round(share * width);
      stream.write(
        `\r  ${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done.toLocaleString('en-GB')}/${total.toLocaleString('en-GB')} ${Math.floor(share * 100)}%`,
      );
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
