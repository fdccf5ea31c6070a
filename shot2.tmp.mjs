import { chromium } from 'playwright-core';
const [,, url, out, w, h] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await (await b.newContext({ viewport: { width: +w, height: +h } })).newPage();
await p.goto(url); await p.waitForTimeout(3000);
console.log(await p.evaluate(() => [document.documentElement.scrollHeight, ...[...document.querySelectorAll('main > * , main section, main .part, main details, main figure')].map(e => `${e.tagName}.${e.className.toString().slice(0,30)} ${Math.round(e.getBoundingClientRect().top + scrollY)} h${Math.round(e.getBoundingClientRect().height)}`)].join('\n')));
await p.screenshot({ path: out, fullPage: true });
await b.close();
