/** What a CLI command reads and writes through, so tests can run commands in-process. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** A line of bulk output (export), resolving when the stream can take more. */
  write?: (line: string) => Promise<void>;
  /** A progress line that replaces the previous one; absent when stderr is not a terminal. */
  progress?: (line: string) => void;
}
