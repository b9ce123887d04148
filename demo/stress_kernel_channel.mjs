// Stress the Pyodide kernel's channel between the page and its worker
// (coincident) on a served site: each round starts a kernel and runs 8,000
// os.stat / os.listdir calls on /drive, each one a round trip through the
// channel, then shuts the kernel down. Run it while the machine is busy (the
// races it finds need a thread descheduled at the wrong moment), e.g. beside
// two `while :; do :; done` loops:
//
//   python demo/serve.py --port 8711 &
//   node demo/stress_kernel_channel.mjs http://127.0.0.1:8711 12
//
// Prints one line per round and the page's console errors. A site built
// with --no-kernel-fix (or before the coincident fix) lost a round to
// "Bad control character in string literal in JSON" about once in ten.
import { chromium } from '@playwright/test';

const [url = 'http://127.0.0.1:8000', rounds = '6'] = process.argv.slice(2);
const executablePath = process.env.UI_TESTS_CHROMIUM ?? '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath });
const page = await browser.newPage();
const errors = [];
page.on('console', message => {
  if (message.type() === 'error') {
    errors.push(message.text().slice(0, 200));
  }
});
page.on('pageerror', error => errors.push(`pageerror ${error}`.slice(0, 200)));
await page.goto(`${url}/lab/index.html`);
await page.waitForFunction(
  () =>
    window.jupyterapp?.serviceManager?.kernelspecs?.specs?.kernelspecs?.python,
  null,
  { timeout: 120_000 }
);
const code = `
import os
n = 0
for _ in range(4000):
    for name in os.listdir('/drive'):
        os.stat('/drive/' + name)
        n += 1
print(n)
`;
let ok = 0;
for (let round = 0; round < Number(rounds); round++) {
  const result = await page.evaluate(async source => {
    const app = window.jupyterapp;
    const kernel = await app.serviceManager.kernels.startNew({
      name: 'python'
    });
    const started = Date.now();
    try {
      const future = kernel.requestExecute({ code: source });
      let out = '';
      future.onIOPub = msg => {
        if (msg.header.msg_type === 'stream') {
          out += msg.content.text;
        } else if (msg.header.msg_type === 'error') {
          out += `error ${msg.content.evalue}`;
        }
      };
      const timeout = new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`no reply in 120 s, kernel ${kernel.status}`)),
          120_000
        )
      );
      const reply = await Promise.race([future.done, timeout]);
      return {
        status: reply.content.status,
        out: out.trim(),
        ms: Date.now() - started
      };
    } catch (error) {
      return { status: 'failed', out: String(error), ms: Date.now() - started };
    } finally {
      await kernel.shutdown().catch(() => undefined);
    }
  }, code);
  ok += result.status === 'ok' ? 1 : 0;
  console.log(`round ${round}: ${JSON.stringify(result)}`);
}
console.log(`${ok} of ${rounds} rounds ok; ${errors.length} console errors`);
for (const error of errors.slice(0, 5)) {
  console.log(`  ${error}`);
}
await browser.close();
process.exit(ok === Number(rounds) ? 0 : 1);
