/**
 * A mistake in how a command was called (an unknown flag, a missing argument, a bad file): the
 * runner prints the message, then the command's usage when one is given, and exits 4.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The help text of the command that refused, printed after the message. */
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
