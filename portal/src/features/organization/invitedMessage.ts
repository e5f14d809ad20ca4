/** What a page says once an invitation exists, whether or not its mail went out. */
export function invitedMessage(email: string, mailed: boolean): string {
  return mailed
    ? `${email} was invited. The invitation mail is on its way.`
    : `${email} was invited, but the invitation mail could not be sent. They will see the invitation once signed in.`;
}
