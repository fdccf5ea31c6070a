// Saving a file from the page without a server: a Blob behind a temporary object URL,
// clicked through an <a download>.

export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns: keep the URL alive for a while.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
