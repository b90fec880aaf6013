/**
 * How a long-running command stops (docs/operations.md#watching-a-folder,
 * docs/operations.md#replaying-an-event): the first SIGINT or SIGTERM ends its loop at the next
 * safe point, never in the middle of an import's transaction.
 */
import type { CliIo } from './cli-io.ts';

/** The first SIGINT or SIGTERM, said on `io` with what happens next; both handlers removed then. */
export function signalled(io: CliIo, then: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      io.out(`${signal}: ${then}`);
      resolve();
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
