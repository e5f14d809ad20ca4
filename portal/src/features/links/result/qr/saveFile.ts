/** Hands a file to the browser as a download (an object URL clicked through a download link). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: a browser may still be reading the file after the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
