// TEMPORARY while the bench and results pages are being written: resolve them by glob
// so the build works before they exist. Replaced by plain imports once they land.
import type { Component } from 'svelte';

const found = import.meta.glob<{ default: Component<any> }>([
  '../bench-ui/BenchPage.svelte',
  '../results/ResultsPage.svelte',
  '../results/SharedPage.svelte',
  '../results/ComparePage.svelte',
  '../results/StageMeasured.svelte',
]);

export function page(path: string): () => Promise<{ default: Component<any> }> {
  return () => {
    const load = found[path];
    if (!load) return Promise.reject(new Error(`${path} is not written yet`));
    return load();
  };
}
