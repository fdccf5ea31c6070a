// Whether the Benchmark page's run is going. A stage page's "Measure this step" waits for
// it and reads it here, without loading the Benchmark page's session and the bench behind it.
export const benchPageRun = $state({ going: false });
