import { chromium } from 'playwright-core';
const [,, url, out, w, h, scheme] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await (await b.newContext({ viewport: { width: +w, height: +h }, colorScheme: scheme || 'light', deviceScaleFactor: 1 })).newPage();
await p.goto(url); await p.waitForTimeout(2500);
await p.screenshot({ path: out });
console.log(await p.evaluate(() => { const t = document.querySelector('header.topbar'); return t ? t.getBoundingClientRect().height : -1; }));
await b.close();
