// End-to-end test of the web page served by `entropy serve`, in headless Chromium driven by
// playwright-core: play a game as Chaos to the end (a legal move, an illegal one refused, the
// final score shown, the evaluation graph drawn, the game reviewed), a slide, a pass and a hint
// as Order, a match record loaded and reviewed with its mistakes marked, and a phone-sized
// screen. Skips with a clear
// message when no browser is installed (Debian: apt-get install chromium).
//
//   ENTROPY_BIN=target/release/entropy node tests/e2e/web.test.mjs [--screenshot docs/screenshot.png]

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";

const browserPath = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(existsSync);
if (!browserPath) {
  // Under CI (CI=true) a missing browser is a failure: .ci/run installs it.
  const ci = Boolean(process.env.CI);
  console.log(`${ci ? "FAIL" : "SKIP"} web end-to-end test: no Chromium found (install Debian's chromium package or set CHROMIUM)`);
  process.exit(ci ? 1 : 0);
}
const { chromium } = await import("playwright-core");
const binary = process.env.ENTROPY_BIN || "target/debug/entropy";
const screenshot = process.argv.includes("--screenshot") ? process.argv[process.argv.indexOf("--screenshot") + 1] : null;

// Start the server on a free port and read its address.
const server = spawn(binary, ["serve", "--port", "0", "--bot", "greedy", "--move-time", "0.2"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  server.stdout.on("data", (data) => {
    const match = /http:\/\/[^ ]+\//.exec(String(data));
    if (match) resolve(match[0]);
  });
  server.on("exit", (code) => reject(new Error(`entropy serve exited with ${code}`)));
  setTimeout(() => reject(new Error("entropy serve did not start")), 20000);
});

const browser = await chromium.launch({
  executablePath: browserPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  page.on("pageerror", (error) => { throw error; });
  await page.goto(url);

  // As Chaos against greedy Order.
  await page.selectOption("#bot", "greedy|0");
  await page.selectOption("#mode", "chaos");
  await page.waitForSelector("#status:has-text('Your turn')");
  const first = await page.locator(".cell.empty").first().getAttribute("data-cell");
  await page.click(`[data-cell="${first}"]`);
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 2);
  const placed = await page.textContent("#moves li:first-child");
  assert.match(placed, new RegExp(`^\\d${first}$`), "our placement is the first move");

  // An illegal placement: an occupied cell is refused with the server's reason.
  await page.waitForSelector("#status:has-text('Your turn')");
  const occupied = await page.locator(".cell.chip").first().getAttribute("data-cell");
  await page.click(`[data-cell="${occupied}"]`);
  await page.waitForSelector("#status.error");
  assert.match(await page.textContent("#status"), /Not allowed: .*occupied/);

  // Play to the end: always the first empty cell.
  for (let turn = 0; turn < 60; turn++) {
    await page.waitForSelector("body[data-state='waiting'], body[data-state='over']");
    if ((await page.getAttribute("body", "data-state")) === "over") break;
    const before = await page.locator("#moves li").count();
    await page.click(".cell.empty >> nth=0");
    await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, before);
  }
  await page.waitForSelector("body[data-state='over']");
  const result = await page.textContent("#result");
  const score = await page.textContent("#score");
  assert.equal(result, `Game over: Order scores ${score}.`);
  assert.equal(await page.locator(".cell.empty").count(), 0, "the board is full");
  console.log(`played a game as Chaos: ${result}`);

  // The evaluation graph has a point per move analysed, the last one the final score; a review
  // values every decision.
  await page.waitForFunction(() => document.querySelectorAll("#graph .point").length > 20);
  const lastPoint = await page.locator("#graph .point").last().textContent();
  assert.match(lastPoint, new RegExp(`: ${score}\\.0`), "the graph ends at the final score");
  await page.click("#review");
  await page.waitForSelector("#status:has-text('Review done')", { timeout: 120000 });
  assert.match(await page.textContent("#explanation"), /Order gave away [\d.]+ expected points, Chaos [\d.]+/);
  // A click on a point shows that position.
  await page.click("#graph .point >> nth=3");
  await page.waitForSelector("#status:has-text('Showing the position after move 3')");
  assert.ok((await page.locator(".cell.chip").count()) <= 3, "an early position is shown");
  console.log("drew the evaluation graph, reviewed the game and went back to move 3");

  // As Order: select a chip, see its destinations, slide it, then pass.
  await page.selectOption("#mode", "order");
  await page.waitForSelector("#status:has-text('Your turn')");
  const chip = await page.locator(".cell.chip").first().getAttribute("data-cell");
  await page.click(`[data-cell="${chip}"]`);
  const targets = page.locator(".cell.target");
  assert.ok((await targets.count()) > 0, "legal destinations are highlighted");
  const target = await targets.first().getAttribute("data-cell");
  await page.click(`[data-cell="${target}"]`);
  await page.waitForFunction(() => [...document.querySelectorAll("#moves li")].some((li) => /^[A-G][a-g][A-G][a-g]$/.test(li.textContent)));
  await page.waitForSelector("#status:has-text('Your turn')");
  await page.click("#pass");
  await page.waitForFunction(() => [...document.querySelectorAll("#moves li")].some((li) => li.textContent === "pass"));
  console.log("slid a chip and passed as Order");
  await page.waitForSelector("#status:has-text('Your turn')");
  await page.click("#hint");
  await page.waitForSelector("#explanation:has-text('Best: ')");
  assert.match(await page.textContent("#explanation"), /expected final score \d+\.\d/);
  console.log(`a hint: ${await page.textContent("#explanation")}`);
  if (screenshot) {
    await page.screenshot({ path: screenshot });
    console.log(`screenshot written to ${screenshot}`);
  }

  // A match record loaded and reviewed: random's mistakes are marked.
  const records = join(mkdtempSync(join(tmpdir(), "entropy-e2e-")), "match.jsonl");
  const made = spawnSync(binary, ["match", "greedy", "random", "--size", "5", "--deals", "1", "--quiet", "--out", records]);
  assert.equal(made.status, 0, String(made.stderr));
  await page.selectOption("#mode", "replay");
  await page.setInputFiles("#record-file", records);
  await page.waitForSelector("#status:has-text('Move 0 of')");
  await page.click("#review");
  await page.waitForSelector("#status:has-text('Review done')", { timeout: 120000 });
  assert.ok((await page.locator("#graph .point.mistake").count()) > 0, "a mistake is marked on the graph");
  await page.locator("#graph .point").last().click();
  await page.waitForFunction(() => document.querySelectorAll("#moves li.mistake").length > 0);
  console.log(`reviewed a record: ${await page.locator("#moves li.mistake").count()} mistakes marked`);

  // A phone-sized screen: the board fits without sideways scrolling.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(url);
  await phone.waitForSelector(".cell");
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone`);
  console.log("fits a 390px-wide phone screen");
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser.close();
  server.kill();
}
process.exit(failed ? 1 : 0);
