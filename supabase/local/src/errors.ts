/** A failure the CLI prints as one line naming the fix, without a stack trace. */
export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}
