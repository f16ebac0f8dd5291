// Debian's Firefox ESR driven over WebDriver BiDi by puppeteer-core (no browser download),
// for tests/browser/test_offline_firefox.py: one JSON command a line on stdin, one JSON
// answer a line on stdout. Commands: goto, reload, click, fill, eval, wait (a predicate,
// awaited), cookie, screenshot, close; eval and wait take a function's source.
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.FIREFOX || "/usr/bin/firefox-esr",
  headless: true,
  // Service workers on plain-HTTP localhost, as on a LAN address, and no first-run pages.
  extraPrefsFirefox: {
    "dom.serviceWorkers.enabled": true,
    "dom.serviceWorkers.testing.enabled": true,
    "intl.accept_languages": "fr-FR, fr",
  },
});
const page = await browser.newPage();
// The phone's size through WebDriver BiDi itself: puppeteer's setViewport also sends a
// screen orientation, which Firefox ESR 140 refuses (no emulation.setScreenOrientationOverride).
// The size is checked in the page, so a size that did not apply still fails.
await page.mainFrame().browsingContext.setViewport({ viewport: { width: 390, height: 844 } });
const size = await page.evaluate(() => [window.innerWidth, window.innerHeight]);
if (size[0] !== 390 || size[1] !== 844) throw new Error("viewport is " + size.join("×"));
// Generous: the machine running the tests may be shared and slow at times.
page.setDefaultTimeout(30000);

// A function's source, called in the page (and awaited when it returns a promise).
function call(js) {
  return page.evaluate("(" + js + ")()");
}

// The element once it is shown. Not puppeteer's locators: in Firefox ESR 140 their click
// waited out its timeout on a button in plain view.
function shown(selector) {
  return page.waitForSelector(selector, { visible: true });
}

// A reload awaited by Firefox itself (WebDriver BiDi's wait), up to the parsed document
// ("interactive"), not its load event. Once in a few dozen runs on a loaded machine, the
// page kept by the service worker was parsed, its scripts run and every resource it lists
// complete (resource timing), and Firefox ESR had still not fired its load event 30 s later;
// what a player sees is the parsed page, which the test then checks. A timeout says what the
// page was doing; the page seen is checked to be a new document.
async function reload() {
  await page.evaluate(() => { window.__beforeReload = true; });
  const context = page.mainFrame().browsingContext;
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("reload: not parsed within 30 s")), 30000);
  });
  try {
    await Promise.race([context.reload({ wait: "interactive" }), late]);
  } catch (error) {
    throw new Error(error.message + " " + (await pageState()));
  } finally {
    clearTimeout(timer);
  }
  if (await page.evaluate(() => Boolean(window.__beforeReload))) {
    throw new Error("reload: still the old document");
  }
  return page.url();
}

// Where the page is: its address, its document's state, and the resources it fetched.
function pageState() {
  return page.evaluate(() => JSON.stringify({
    url: location.href,
    ready: document.readyState,
    served: document.body && document.body.dataset.served,
    // Which page it is: the partie's, the offline page, or the note of another account.
    shown: ["#partie-body", "#offline-page", "#kept-other-account"]
      .filter(function (selector) { return document.querySelector(selector); }),
    resources: performance.getEntriesByType("resource").map(function (entry) {
      return [entry.name, Math.round(entry.startTime), Math.round(entry.duration)];
    }),
  })).catch((error) => "page state unknown: " + error.message);
}

async function run(command) {
  switch (command.op) {
    case "cookie":
      await browser.setCookie(command.cookie);
      return null;
    case "goto":
      await page.goto(command.url, { waitUntil: "load" });
      return page.url();
    case "reload":
      return await reload();
    case "click":
      // A row drawn anew between finding and tapping it: tapped again, on the new one.
      for (let tries = 1; ; tries++) {
        try {
          await (await shown(command.selector)).click();
          return null;
        } catch (error) {
          if (tries === 5 || !String(error.message).includes("detached")) throw error;
        }
      }
    case "fill": {
      const field = await shown(command.selector);
      await field.evaluate((input) => (input.value = ""));
      await field.type(command.value);
      return null;
    }
    case "eval":
      return await call(command.js);
    case "wait": {
      const until = Date.now() + (command.ms || 30000);
      for (;;) {
        const value = await call(command.js).catch(() => false);
        if (value) return value;
        if (Date.now() > until) {
          throw new Error("still false: " + command.js + " " + (await pageState()));
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    case "screenshot":
      await page.screenshot({ path: command.path, fullPage: true });
      return null;
    case "close":
      await browser.close();
      process.exit(0);
    default:
      throw new Error("unknown command " + command.op);
  }
}

const lines = readline.createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
for await (const line of lines) {
  let answer;
  try {
    answer = { ok: true, value: await run(JSON.parse(line)) };
  } catch (error) {
    answer = { ok: false, error: String(error && error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
