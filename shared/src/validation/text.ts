/** Lengths count characters (code points), as the server's character limits do. */
export function characterCount(text: string): number {
  return Array.from(text).length;
}
