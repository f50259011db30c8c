// Bundles the page into www/dist/: src/main.js (the page) and src/worker.js (owns the wasm module),
// and copies the wasm binary beside the worker. `node build.mjs --dev` skips minification.
// codemirror-json-schema renders hover text with markdown-it and shiki (which would load grammars
// at run time); it is pointed at src/markdown.js, which escapes text and keeps `code` spans.
// CodeMirror's styles go into a constructed stylesheet (see constructedStyles).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const dev = process.argv.includes('--dev');

const plainMarkdown = {
  name: 'plain-markdown',
  setup(build) {
    build.onResolve({ filter: /\/utils\/markdown(\.js)?$/ }, (args) =>
      args.importer.includes('codemirror-json-schema')
        ? { path: path.join(here, 'src', 'markdown.js') }
        : undefined);
  },
};

// CodeMirror's style-mod writes its rules into a <style> element when it mounts on a document,
// which the page's CSP (style-src 'self', no inline styles) refuses; a constructed stylesheet
// (adoptedStyleSheets) is no inline style, so let it use one for documents too.
const constructedStyles = {
  name: 'constructed-styles',
  setup(build) {
    build.onLoad({ filter: /style-mod[\\/]src[\\/]style-mod\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const patched = source.replace('!root.head && root.adoptedStyleSheets', 'root.adoptedStyleSheets');
      if (patched === source) throw new Error('style-mod changed: the constructed-styles patch no longer applies');
      return { contents: patched, loader: 'js' };
    });
  },
};

// svgcanvas (the timeline's SVG export) reads a font shorthand by writing it into a span's style
// attribute, an inline style the CSP refuses (and the font is then lost); setting it through the
// CSSOM is no inline style and parses the same.
const svgFontsThroughCssom = {
  name: 'svg-fonts-through-cssom',
  setup(build) {
    build.onLoad({ filter: /svgcanvas[\\/]dist[\\/]svgcanvas(\.esm)?\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const patched = source.replace(`el.setAttribute("style", 'font:' + this.font);`, 'el.style.font = this.font;');
      if (patched === source) throw new Error('svgcanvas changed: the svg-fonts-through-cssom patch no longer applies');
      return { contents: patched, loader: 'js' };
    });
  },
};

const wasm = path.join(here, 'pkg', 'policy_playground_bg.wasm');
if (!fs.existsSync(wasm)) {
  console.error('build: www/pkg/ is missing; run scripts/build-wasm first');
  process.exit(1);
}
fs.mkdirSync(dist, { recursive: true });
const started = Date.now();
await esbuild.build({
  entryPoints: { main: path.join(here, 'src', 'main.js'), worker: path.join(here, 'src', 'worker.js') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  outdir: dist,
  plugins: [plainMarkdown, constructedStyles, svgFontsThroughCssom],
  logLevel: 'warning',
  legalComments: 'none',
});
fs.copyFileSync(wasm, path.join(dist, 'policy_playground_bg.wasm'));
const size = (f) => Math.round(fs.statSync(path.join(dist, f)).size / 1024);
console.log(`build: www/dist main.js ${size('main.js')} KiB, worker.js ${size('worker.js')} KiB, wasm ${size('policy_playground_bg.wasm')} KiB (${Date.now() - started} ms)`);
