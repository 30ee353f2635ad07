// Builds the page into the Python package (bot/web/static), so that the bot serves it
// without Node: `npm ci && npm run build` in web/. Records the hash of the sources it
// was built from; the test suite checks it against the sources (tests/activity/test_activity_page.py).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";

const out = "../bot/web/static";
await build({
  entryPoints: ["src/main.js"], bundle: true, minify: true, format: "iife",
  target: ["chrome100", "safari15"], outfile: `${out}/app.js`, legalComments: "none",
});
copyFileSync("src/index.html", `${out}/index.html`);
copyFileSync("src/app.css", `${out}/app.css`);

// The same hash as tests/activity/test_activity_page.py's sources_hash: each file's path and bytes.
const files = ["build.mjs", "package.json", "package-lock.json",
  ...readdirSync("src").map((name) => `src/${name}`)].sort();
const hash = createHash("sha256");
for (const file of files) {
  hash.update(file + "\0");
  hash.update(readFileSync(file));
  hash.update("\0");
}
writeFileSync(`${out}/SOURCES.sha256`, hash.digest("hex") + "\n");
