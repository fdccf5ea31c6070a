// The sandbox a page's runs share: made on the first press of "Check and measure" and
// kept, so later runs skip its loading. One that did not load (offline before the app was
// stored, a server that failed) is closed, and the next press makes a fresh one, which
// loads once the cause is gone: no reload of the page needed.

/** What the keeper needs of a sandbox (src/app/playground/sandbox.ts). */
export interface LoadingSandbox {
  /** Resolves once the sandbox can start workers; rejects with why it did not load. */
  whenReady(): Promise<void>;
  close(): void;
}

export class SandboxKeeper<S extends LoadingSandbox> {
  private kept: S | null = null;

  constructor(private readonly make: () => S) {}

  /** The kept sandbox once it has loaded, or a new one; rejects with why it did not load. */
  async ready(): Promise<S> {
    const sandbox = (this.kept ??= this.make());
    try {
      await sandbox.whenReady();
      return sandbox;
    } catch (error) {
      sandbox.close();
      if (this.kept === sandbox) this.kept = null;
      throw error;
    }
  }

  close(): void {
    this.kept?.close();
    this.kept = null;
  }
}
