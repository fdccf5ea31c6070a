// The playground in the built app under its production headers: a learner undoes a
// stage's change in one click and gets a verdict; broken, mistyped, unparsable and
// endless drafts are stopped with a message while the page stays usable; a sandbox that
// does not load is reported as such and made again on the next press; a shared variant
// opens without running; and code in the sandbox can reach neither the app's storage
// nor the network.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseURL, launchBrowser, openApp } from './harness.ts';

const STAGE_1 = readFileSync(new URL('../../steps/01-read-words-full/blake3.ts', import.meta.url), 'utf8');
const HASH_START = 'export function hash(input: Uint8Array): Uint8Array {';

/** An init script that stores `text` as the draft of stage 1 (in the app's frame only). */
function withDraft(text: string): string {
  const draft = JSON.stringify({ 'blake3.ts': text });
  return `if (window === top) localStorage.setItem('blake3-lab:playground:01-read-words-full', ${JSON.stringify(draft)});`;
}

/** Stage 1 with `code` added at the start of hash(). */
function stage1With(code: string): string {
  expect(STAGE_1).toContain(HASH_START);
  return STAGE_1.replace(HASH_START, `${HASH_START}\n  ${code}`);
}

async function editorReady(page: Page): Promise<void> {
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
}

async function onlySize(page: Page, size: number, rounds = 10): Promise<void> {
  for (const box of await page.locator('input[data-testid^="size-"]').all()) await box.uncheck();
  await page.getByTestId(`size-${size}`).check();
  await page.getByTestId('rounds').selectOption(String(rounds));
}

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText({ timeout: 5000 }).catch(() => '');

describe('the playground', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('undoes stage 6 from its story page in one click, keeps the draft, and says what the change was worth', async () => {
    // The diff first: Monaco starts for reading, and the playground must still get a full editor.
    const opened = await openApp(browser, '/#/stage/6/code');
    const { page } = opened;
    await page.locator('.monaco-diff-editor').waitFor({ timeout: 60_000 });
    const edit = page.getByRole('link', { name: 'Edit this stage' });
    expect(await edit.getAttribute('href')).toBe('#/playground/6');
    await page.getByRole('navigation', { name: 'Stage views' }).getByRole('link', { name: 'Story' }).click();
    await page.locator('.experiments a[href="#/playground/6/try/undo"]').click();
    await editorReady(page);
    await expect.poll(() => page.url()).toMatch(/#\/playground\/6$/);
    // No error markers: blake3.ts finds the compress.ts beside it.
    await expect.poll(() => text(page, 'draft-status')).toMatch(/^Changed: compress\.ts\. Saved in this browser\./);

    await onlySize(page, 65536);
    await page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(page, 'check-passed'), { timeout: 60_000 }).toMatch(/Correct on all 58 inputs/);
    // On a quiet machine the verdict reads "Your change is about 35% slower than stage 6 (p=...)";
    // on a busy one it may honestly be "no measurable difference". Either way it is a verdict.
    await expect
      .poll(() => text(page, 'verdict'), { timeout: 90_000 })
      .toMatch(/^(Your change is [\d.]+(%|x) (slower|faster) than stage 6 \(p(=[\d.]+|<0\.001)[^)]*\)|No measurable difference from stage 6)\.\s+64 KiB: /);
    expect(await text(page, 'figures')).toMatch(/Your draft\s+[\d,.]+ MB\/s/);
    expect(await text(page, 'draft-status')).not.toMatch(/error/);

    // The changes against the original, file by file, and back to the editor.
    await page.getByRole('button', { name: 'Show changes (1 file)' }).click();
    await page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-lines').first().waitFor();
    const tabs = page.getByRole('group', { name: 'Files' }).getByRole('button');
    for (const tab of await tabs.all()) {
      await tab.click();
      await expect.poll(() => tab.getAttribute('aria-pressed')).toBe('true');
    }
    await page.getByRole('button', { name: 'Hide changes' }).click();
    await page.locator('.monaco-diff-editor').waitFor({ state: 'detached' });
    // The stage's code pages, read while TypeScript's service runs: coloured, never checked
    // (a file on its own would have its imports marked missing, or fail in the service).
    await page.getByRole('link', { name: 'Back to the story' }).click();
    await page.getByRole('navigation', { name: 'Stage views' }).getByRole('link', { name: 'Code' }).click();
    await page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-lines').first().waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Files of stage 6' }).getByRole('link', { name: /compress\.ts/ }).click();
    await expect.poll(() => page.url()).toMatch(/#\/stage\/6\/code\/compress\.ts$/);
    await page.locator('.monaco-editor .view-lines').first().waitFor();
    await page.getByRole('link', { name: 'Edit this stage' }).click();
    await editorReady(page);
    await expect.poll(() => text(page, 'draft-status')).toMatch(/^Changed: compress\.ts\./);
    expect(opened.errors).toEqual([]);

    // The draft outlives a reload; "Reset to original" asks first.
    await page.reload();
    await editorReady(page);
    await expect.poll(() => text(page, 'draft-status')).toMatch(/Changed: compress\.ts\./);
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.accept();
    });
    await page.getByTestId('reset').click();
    expect(dialogs).toEqual(['Discard your changes to compress.ts and go back to stage 6 as it is?']);
    await expect.poll(() => text(page, 'draft-status')).toMatch(/No changes yet\./);

    // A run can be cancelled while it measures; the page says so instead of judging part of it.
    await page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(page, 'check-passed'), { timeout: 60_000 }).toMatch(/Correct on all 58 inputs/);
    await page.getByTestId('cancel').click();
    await expect.poll(() => page.locator('.outcome').innerText()).toMatch(/You cancelled the run/);
    expect(await page.getByTestId('check-and-measure').isEnabled()).toBe(true);
    expect(opened.errors).toEqual([]);
    expect(opened.foreignRequests).toEqual([]);
  });

  it('shows the first failing vector of a broken draft and marks type and syntax errors without running them', async () => {
    const broken = await openApp(browser, '/#/playground/0/try/break-iv');
    await editorReady(broken.page);
    await expect.poll(() => text(broken.page, 'draft-status')).toMatch(/Changed: blake3\.ts/);
    await broken.page.getByTestId('check-and-measure').click();
    await expect
      .poll(() => text(broken.page, 'check-failure'), { timeout: 30_000 })
      .toMatch(/not a correct BLAKE3 on official vector 1 of 35: 0 bytes.*wrong digest: the bytes first differ at byte \d+\. Nothing was timed\.\s+expected\s+af1349b9/s);
    expect(await broken.page.locator('[data-testid="check-failure"] mark').count()).toBe(2);
    expect(broken.errors).toEqual([]);
    await broken.page.context().close();

    const typed = await openApp(browser, '/#/playground/1', { beforeLoad: withDraft(stage1With("const typo: number = 'not a number';")) });
    await editorReady(typed.page);
    // TypeScript marks the error as the draft opens; the editor counts the markers.
    await expect.poll(() => text(typed.page, 'draft-status'), { timeout: 60_000 }).toMatch(/^1 error in blake3\.ts/);
    await typed.page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(typed.page, 'compile-errors'), { timeout: 30_000 }).toMatch(/TypeScript found errors.*nothing\s+was run.*blake3\.ts:\d+:\d+\s+Type 'string' is not assignable to type 'number'/s);
    // Its line is one click away, with the marker under the mistake.
    await typed.page.locator('[data-testid="compile-errors"] button').first().click();
    await typed.page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 10_000 });
    expect(await typed.page.locator('iframe[data-playground-sandbox]').count()).toBe(0);
    expect(typed.errors).toEqual([]);
    await typed.page.context().close();

    const unparsable = await openApp(browser, '/#/playground/1', { beforeLoad: withDraft(stage1With('if (input.length > 0 {')) });
    await editorReady(unparsable.page);
    await unparsable.page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(unparsable.page, 'compile-errors'), { timeout: 30_000 }).toMatch(/Your draft does not parse.*blake3\.ts:\d+:\d+\s+'\)' expected/s);
    expect(unparsable.errors).toEqual([]);
    for (const opened of [broken, typed, unparsable]) expect(opened.foreignRequests).toEqual([]);
    await unparsable.page.context().close();
  });

  it('stops an endless loop within seconds, keeps the draft and the page usable', async () => {
    const { page, errors, foreignRequests } = await openApp(browser, '/#/playground/1', { beforeLoad: withDraft(stage1With('while (input.length >= 0) {}')) });
    await editorReady(page);
    const started = Date.now();
    await page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(page, 'check-failure'), { timeout: 20_000 }).toMatch(/no answer within 4 s while loading or on the first input: it seems stuck \(an endless loop, or work that never ends\), so its worker was stopped\. Your draft is kept/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // The page answers at once, and the draft is still there.
    const ms = await page.evaluate(() => new Promise<number>((resolve) => { const t = performance.now(); requestAnimationFrame(() => resolve(performance.now() - t)); }));
    expect(ms).toBeLessThan(500);
    await page.getByRole('button', { name: 'Show changes (1 file)' }).click();
    await page.locator('.monaco-diff-editor').waitFor();
    expect(await text(page, 'draft-status')).toMatch(/Changed: blake3\.ts\. Saved in this browser\./);
    expect(await page.getByTestId('check-and-measure').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });

  it('says the sandbox did not load, never that the draft is stuck, gives no code to one without its policy, and starts afresh on the next press', async () => {
    const { page, foreignRequests } = await openApp(browser, '/#/playground/1');
    await editorReady(page);
    await onlySize(page, 1024, 5);
    const sandboxPage = `${baseURL()}/sandbox.html`;
    const stopped = () => page.getByRole('alert').filter({ hasText: 'The run stopped:' }).innerText({ timeout: 1000 }).catch(() => '');
    const press = async () => {
      await page.getByTestId('check-and-measure').click();
      await page.getByTestId('check-and-measure').waitFor({ timeout: 60_000 });
    };

    // As offline before the app was ever stored: the frame gets an error page, not the sandbox.
    await page.route(sandboxPage, (route) => route.abort('internetdisconnected'));
    const started = Date.now();
    await press();
    expect(await stopped()).toMatch(/^The run stopped: the sandbox did not load: \/sandbox\.html could not be fetched, or is not the sandbox page$/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await page.getByTestId('check-failure').count()).toBe(0);
    await page.unroute(sandboxPage);

    // The sandbox page without its header's sandbox would share the app's origin and storage.
    const unsandboxed = { 'Content-Type': 'text/html', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' };
    const body = readFileSync(new URL('../../src/app/playground/sandbox-page.html', import.meta.url), 'utf8');
    await page.route(sandboxPage, (route) => route.fulfill({ status: 200, headers: unsandboxed, body }));
    await press();
    expect(await stopped()).toMatch(/^The run stopped: the sandbox did not load: \/sandbox\.html came without its sandbox policy, so no code is sent to it$/);
    expect(await page.getByTestId('check-failure').count()).toBe(0);
    await page.unroute(sandboxPage);

    // Served again: the next press makes a fresh sandbox, which checks and measures.
    await press();
    expect(await stopped()).toBe('');
    expect(await text(page, 'check-passed')).toMatch(/^✓ Correct on all \d+ inputs/);
    expect(await text(page, 'verdict')).toMatch(/^(Your change is|No measurable difference)/);
    expect(await page.locator('iframe[data-playground-sandbox]').count()).toBe(1);
    expect(foreignRequests).toEqual([]);
  });

  it('opens a shared variant with its code and changes, marked as code, and runs nothing until asked', async () => {
    const marker = '// shared by a classmate: stage 1 with a comment';
    const author = await openApp(browser, '/#/playground/1', { beforeLoad: withDraft(`${marker}\n${STAGE_1}`) });
    await editorReady(author.page);
    await author.page.getByTestId('make-link').click();
    const link = await author.page.getByTestId('variant-link').inputValue({ timeout: 15_000 });
    expect(link.startsWith(`${baseURL()}/#/playground/1/share/1.`)).toBe(true);
    await author.page.context().close();

    const reader = await openApp(browser, link.slice(baseURL().length));
    const { page } = reader;
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.locator('.monaco-diff-editor .view-lines').first().waitFor({ timeout: 60_000 });
    expect(await text(page, 'shared-note')).toMatch(/^This link contains code\..*Nothing has run\./s);
    const modifiedSide = page.locator('.monaco-diff-editor .modified-in-monaco-diff-editor .view-lines');
    await expect.poll(async () => (await modifiedSide.innerText()).replace(/\u00a0/g, ' ')).toContain(marker);
    expect(await text(page, 'draft-status')).toMatch(/Changed: blake3\.ts\. Not saved: this is a shared variant\./);
    // Nothing ran: no sandbox, no worker but the editor's and TypeScript's own.
    expect(await page.locator('iframe[data-playground-sandbox]').count()).toBe(0);
    expect(workers.filter((url) => !/editor\.worker|ts\.worker/.test(url))).toEqual([]);
    // The reader's own draft of stage 1 was not touched.
    expect(await page.evaluate(() => localStorage.getItem('blake3-lab:playground:01-read-words-full'))).toBeNull();
    // From the diff of the variant straight to the reader's own (empty) draft.
    await page.getByRole('link', { name: 'Open my own draft instead' }).click();
    await expect.poll(() => text(page, 'draft-status')).toMatch(/^No changes yet\. Saved in this browser\./);
    expect(reader.errors).toEqual([]);
    expect(reader.foreignRequests).toEqual([]);
  });

  it("keeps code in the sandbox away from the app's storage, cookies and any network", async () => {
    const secret = 'app-secret-7f3a';
    // A server of another origin that records every request it gets: it must get none.
    const hits: string[] = [];
    const spy: Server = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.end('export const leaked = true;');
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    const { port } = spy.address() as { port: number };
    const elsewhere = `http://127.0.0.1:${port}`;
    // Runs as the draft module loads, in the sandbox worker; hash() then reports what it saw.
    const probe = `
const seen: Record<string, string> = {};
const violations: string[] = [];
addEventListener('securitypolicyviolation', (event) => violations.push((event as SecurityPolicyViolationEvent).effectiveDirective));
async function attempt(name: string, action: () => unknown): Promise<void> {
  try { seen[name] = 'ALLOWED ' + String(await action()).slice(0, 60); } catch (error) { seen[name] = 'blocked: ' + String(error).slice(0, 80); }
}
const world = globalThis as any;
await attempt('localStorage', () => world.localStorage.getItem('secret'));
await attempt('indexedDB', () => new Promise((resolve, reject) => { const r = world.indexedDB.open('lab'); r.onsuccess = () => resolve('opened'); r.onerror = () => reject(r.error); }));
await attempt('cookie', () => world.document.cookie);
await attempt('caches', () => world.caches.keys());
await attempt('parent', () => world.parent.localStorage.getItem('secret'));
await attempt('fetch app', () => fetch(${JSON.stringify(baseURL() + '/?from-sandbox')}).then((r) => r.status));
await attempt('fetch other', () => fetch(${JSON.stringify(elsewhere + '/fetch')}).then((r) => r.status));
await attempt('importScripts', () => world.importScripts(${JSON.stringify(elsewhere + '/script')}));
const moduleUrl = ${JSON.stringify(elsewhere + '/module')};
await attempt('import', () => import(moduleUrl));
await attempt('websocket', () => new Promise((resolve, reject) => {
  const socket = new WebSocket(${JSON.stringify(`ws://127.0.0.1:${port}/socket`)});
  socket.onopen = () => resolve('open');
  socket.onerror = () => setTimeout(() => reject(new Error('refused, the policy said ' + violations.join(' '))), 100);
}));
export function hash(input: Uint8Array): Uint8Array { throw new Error('PROBE' + JSON.stringify(seen)); }
`;
    const opened = await openApp(browser, '/#/playground/1', {
      beforeLoad: `if (window === top) {
        localStorage.setItem('secret', '${secret}');
        document.cookie = 'secret=${secret}';
        indexedDB.open('lab').onupgradeneeded = (e) => e.target.result.createObjectStore('secret');
      }
      ${withDraft(STAGE_1.replace(/export function hash\(/, 'function unusedHash(') + probe)}`,
    });
    const { page } = opened;
    // Requests the browser answered (a request the policy refused fails before it leaves).
    const answered: string[] = [];
    const refused: string[] = [];
    page.context().on('response', (response) => answered.push(response.url()));
    page.context().on('requestfailed', (request) => request.failure()?.errorText === 'csp' && refused.push(request.url()));
    await editorReady(page);
    await page.getByTestId('check-and-measure').click();
    await expect.poll(() => text(page, 'check-failure'), { timeout: 30_000 }).toMatch(/PROBE/);
    const report = JSON.parse(/PROBE(\{.*\})/s.exec(await text(page, 'check-failure'))![1].replace(/\s+/g, ' ')) as Record<string, string>;
    expect(Object.keys(report)).toHaveLength(10);
    for (const [name, outcome] of Object.entries(report)) expect(`${name}: ${outcome}`).toMatch(/^[^:]+: blocked: /);
    // The socket fails because the sandbox's policy refuses it, not merely because nothing listens.
    expect(report.websocket).toMatch(/the policy said .*connect-src/);
    expect(JSON.stringify(report)).not.toContain(secret);
    expect(answered.filter((url) => url.includes('from-sandbox'))).toEqual([]);

    // The sandbox page itself is an opaque origin under its own policy.
    const frame = page.frames().find((f) => f.url().endsWith('/sandbox.html'))!;
    expect(frame).toBeDefined();
    const inFrame = await frame.evaluate(async (url) => {
      const tryIt = async (action: () => unknown) => {
        try {
          return `ALLOWED ${String(await action())}`;
        } catch (error) {
          return `blocked: ${String(error)}`;
        }
      };
      return {
        origin: origin,
        localStorage: await tryIt(() => localStorage.getItem('secret')),
        cookie: await tryIt(() => document.cookie),
        indexedDB: await tryIt(() => indexedDB.open('lab')),
        fetch: await tryIt(() => fetch(url).then((r) => r.status)),
        parent: await tryIt(() => (parent as Window).localStorage.getItem('secret')),
      };
    }, baseURL() + '/?frame-fetch');
    expect(inFrame.origin).toBe('null');
    for (const key of ['localStorage', 'cookie', 'indexedDB', 'fetch', 'parent'] as const) expect(`${key}: ${inFrame[key]}`).toMatch(/^\w+: blocked: /);
    expect(answered.filter((url) => url.includes('frame-fetch'))).toEqual([]);
    await frame.evaluate((url) => fetch(url).catch(() => null), `${elsewhere}/frame`);
    expect(hits).toEqual([]);
    spy.close();
    // The app itself still has its secret: the probes read nothing, and changed nothing.
    expect(await page.evaluate(() => localStorage.getItem('secret'))).toBe(secret);
    // The browser lists a module request the policy refused before sending; nothing else left.
    expect(opened.foreignRequests.filter((url) => !refused.includes(url))).toEqual([]);
  });
});
