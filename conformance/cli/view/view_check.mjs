// conformance/cli/view/view_check.mjs PLAYWRIGHT_CORE DIR: make view-check's
// judge (view_check.sh writes DIR/small, DIR/default and DIR/trn2_48xl
// first). Debian's chromium, headless, driven through playwright-core with a
// fresh profile each time, judges the timeline page (D-TIMELINE-HTML):
//
//   small      a hand-made trace (small.json): where the script puts its two
//              marks and what it says of them, worked out by hand below
//   default    every lane and span of the run's Chrome JSON (counted with
//              jq by view_check.sh) is in the page: the lanes as the label
//              column's <div class="lane">, named as the JSON names them
//   trn2_48xl  16 devices, 64 NCs, 321 lanes, 2,860 flows: its screenshot
//              (DIR/trn2_48xl/timeline.png) shows grouped lanes (17 group
//              rows, the host and a device each, no lane row; the title
//              names the 16 devices) and no flow: no pixel of the flow colour;
//              pointing at an nrt_execute draws its flows and only them; the
//              "all flows" button draws them all; the label column holds no
//              mark's colour after zooming; the ticks are round; the plot is
//              as wide as the window; and the zoom step is measured
//
// A zoom step is the time from a wheel event on the plot to the end of the
// next frame the browser renders (a requestAnimationFrame callback, then a
// task after it), in the page, over 12 steps (6 in, 6 out); the median is
// printed with the goal (<= 100 ms). It is a measurement, never a verdict:
// performance is judged in benchmarks, and a loaded machine must not fail
// a check (docs/measurements.md keeps the figures).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const [pwDir, dir] = process.argv.slice(2);
const { chromium } = await import(path.join(pwDir, 'index.mjs'));
const FLOW = [0x8e, 0x0c, 0x5c];
const GOAL_MS = 100;
let failed = 0;
function fail(what) { console.error('view-check: ' + what); failed = 1; }
function expect(ok, what) { if (!ok) fail(what); return ok; }

// A PNG's pixels (8-bit RGB or RGBA, not interlaced: what chromium writes).
function decodePng(buf) {
  let w = 0, h = 0, type = 0, idat = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at), name = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + len);
    if (name === 'IHDR') {
      w = body.readUInt32BE(0); h = body.readUInt32BE(4); type = body[9];
      if (body[8] !== 8 || body[12] !== 0 || (type !== 2 && type !== 6))
        throw new Error('a PNG this decoder does not read');
    } else if (name === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3, stride = w * bpp, raw = zlib.inflateSync(Buffer.concat(idat));
  const px = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[dst + x - bpp] : 0, b = y ? px[dst - stride + x] : 0;
      const c = x >= bpp && y ? px[dst - stride + x - bpp] : 0, v = raw[src + x];
      let p = v;
      if (f === 1) p = v + a;
      else if (f === 2) p = v + b;
      else if (f === 3) p = v + ((a + b) >> 1);
      else if (f === 4) {
        const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
        p = v + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      px[dst + x] = p & 255;
    }
  }
  return { w, h, bpp, px };
}
// Pixels of a box (CSS px, device scale 1) that `pred` accepts.
function countPixels(img, box, pred) {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(img.h, box.y + box.height); y++)
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(img.w, box.x + box.width); x++) {
      const o = (y * img.w + x) * img.bpp;
      if (pred(img.px[o], img.px[o + 1], img.px[o + 2])) n++;
    }
  return n;
}
// The flow colour, within 30 (sum of the channels' differences): no mark's
// colour (hsl(h, 60%, 55%), every channel pair far from it) nor a bar's name
// antialiased over it comes that close (the nearest, a name over
// nc_model_switch's colour, stays 55 away).
const isFlow = (r, g, b) => Math.abs(r - FLOW[0]) + Math.abs(g - FLOW[1]) + Math.abs(b - FLOW[2]) <= 30;
// A mark's colour: saturated (the label column's text and backgrounds are greys).
const isColour = (r, g, b) => Math.max(r, g, b) - Math.min(r, g, b) > 60;

async function open(page, file) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('file://' + file, { waitUntil: 'load', timeout: 120000 });
  await page.waitForFunction(() => window.ntsimTimeline && window.ntsimTimeline.drawn.ms > 0, null, { timeout: 60000 })
    .catch(() => { throw new Error(file + ": the page's script never drew (no window.ntsimTimeline): " + errors.join('; ')); });
  await settle(page);
  return errors;
}
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
const drawn = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.ntsimTimeline.drawn)));

async function withPage(fn) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ntsim-view-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Nothing but the page itself: any request elsewhere fails the check.
  const fetched = [];
  ctx.on('request', (r) => { if (!r.url().startsWith('file://')) fetched.push(r.url()); });
  try {
    await fn(await ctx.newPage());
  } finally {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  expect(fetched.length === 0, 'the page fetched ' + fetched.join(' '));
}

// small: two model_submit instants on thread 7, NC 0, at 5000 and 5000 +
// 1999500 ns (small.json). By hand: the span is 1999500 ns and the view's
// ends sit 6 px inside the plot (230 px from the view's left, W wide), so the
// first is at x 236 and the second at 230 + W - 6, both in the one lane's first row (y =
// axis 28 + group row 20 + 2 + 7 = 57); the second's details say "at
// +1999.500 us" (1999500 / 1000 = 1999, remainder 500). Time 0 is the
// first host time, 5000 ns after the epoch: the origin box reads the UTC
// date, then the time of day to the nanosecond, "1970-01-01" and
// "00:00:00.000005000 UTC".
await withPage(async (page) => {
  const errors = await open(page, path.join(dir, 'small/timeline.html'));
  expect(errors.length === 0, 'small: script errors: ' + errors.join('; '));
  const got = await page.evaluate(() => {
    const T = window.ntsimTimeline, v = T.view();
    return { v, a: T.at(0), b: T.at(1), da: T.detail(0), db: T.detail(1),
             origin: document.getElementById('origin').textContent };
  });
  expect(got.origin === 'time from 1970-01-01\n00:00:00.000005000 UTC',
    'small: the origin reads ' + JSON.stringify(got.origin));
  expect(got.a.x === 236 && got.a.y === 57, `small: first mark at ${JSON.stringify(got.a)}, want x 236 y 57`);
  expect(Math.abs(got.b.x - (230 + got.v.width - 6)) < 1e-6 && got.b.y === 57,
    `small: second mark at ${JSON.stringify(got.b)}, want x ${230 + got.v.width - 6} y 57`);
  expect(got.da === 'nrt_model_submit\nat +0.000 us\nnc 0, thread 7, tracking_id 0\nmodel_id: 0',
    'small: first details: ' + JSON.stringify(got.da));
  expect(got.db.startsWith('nrt_model_submit\nat +1999.500 us\n'), 'small: second details: ' + JSON.stringify(got.db));
  console.log(`view-check: small: marks at x ${got.a.x} and ${got.b.x} (a ${got.v.width}-px plot), details as worked out`);
});

// default: every lane and span of the Chrome JSON.
await withPage(async (page) => {
  const want = JSON.parse(fs.readFileSync(path.join(dir, 'default/want.json'), 'utf8'));
  const errors = await open(page, path.join(dir, 'default/timeline.html'));
  expect(errors.length === 0, 'default: script errors: ' + errors.join('; '));
  await page.click('#expand');
  await settle(page);
  const got = await page.evaluate(() => ({
    lanes: [...document.querySelectorAll('#rows .lane')].map((e) => e.dataset.lane),
    groups: document.querySelectorAll('#rows .group').length,
    spans: window.ntsimTimeline.data.items.filter((it) => it[5] & 1).length,
    labels: window.ntsimTimeline.drawn.labels,
  }));
  const named = want.lanes.filter((n) => got.lanes.includes(n)).length;
  console.log(`view-check: default: chromium's page: ${got.lanes.length} lanes in ${got.groups} groups ` +
    `(${named} named as in the JSON), ${got.spans} spans, ${got.labels} names in bars; the Chrome JSON: ` +
    `${want.lanes.length} threads, ${want.spans} spans`);
  expect(got.lanes.length === want.lanes.length && named === want.lanes.length, 'default: lanes differ');
  expect(got.spans === want.spans, 'default: spans differ');
  expect(got.labels > 0, 'default: no span is wide enough for its name at full view');
});

// trn2_48xl: the screenshot, flows, clipping, ticks, width, and the zoom step.
// (The first page was an <svg id="timeline"> with a 230-px label column and a
// 1100-px plot: VIEW_CHECK_COMPARE times it the same way.)
async function zoomSteps(page) {
  return page.evaluate(async () => {
    const plot = document.getElementById('plot') || document.getElementById('timeline');
    const r = plot.getBoundingClientRect(), out = [];
    const x = plot.id === 'plot' ? r.left + r.width / 3 : r.left + 230 + 1100 / 3;
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      plot.dispatchEvent(new WheelEvent('wheel', { deltaY: i < 6 ? -100 : 100, clientX: x,
        clientY: r.top + 100, bubbles: true, cancelable: true }));
      await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      out.push(performance.now() - t0);
    }
    return out;
  });
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return (s[5] + s[6]) / 2; };
const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
await withPage(async (page) => {
  const png = path.join(dir, 'trn2_48xl/timeline.png');
  const t0 = Date.now();
  const file = path.join(dir, 'trn2_48xl/timeline.html');
  const errors = await open(page, file);
  const loadMs = Date.now() - t0;
  expect(errors.length === 0, 'trn2_48xl: script errors: ' + errors.join('; '));
  const info = await page.evaluate(() => {
    const T = window.ntsimTimeline, box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    return { groups: document.querySelectorAll('#rows .group').length, lanes: document.querySelectorAll('#rows .lane').length,
      dataGroups: T.data.groups.length, dataLanes: T.data.lanes.length, flows: T.data.flows.length,
      plot: box(document.getElementById('plot')), rows: box(document.getElementById('rows')),
      view: box(document.getElementById('view')), scroller: document.getElementById('scroller').clientWidth,
      width: T.view().width, title: document.querySelector('h1').textContent };
  });
  await page.screenshot({ path: png });
  const first = await drawn(page);
  let img = decodePng(fs.readFileSync(png));
  const curtain = countPixels(img, info.plot, isFlow);
  console.log(`view-check: trn2_48xl: "${info.title}", ${info.dataLanes} lanes in ${info.groups} group rows ` +
    `(${info.lanes} lane rows open), ${first.flows + first.overlayFlows} of ${info.flows} flows drawn, ` +
    `${curtain} flow-coloured pixels in the screenshot ${png}`);
  expect(info.groups === info.dataGroups && info.groups === 17 && info.lanes === 0,
    'trn2_48xl: the page does not open with its 17 groups (the host, 16 devices) closed');
  expect(first.flows === 0 && first.overlayFlows === 0 && curtain === 0, 'trn2_48xl: flows drawn before any was asked for');
  expect(/64 NCs \(0-63\) on 16 neuron devices \(0-15\)/.test(info.title), 'trn2_48xl: title ' + info.title);
  expect(Math.abs(info.view.width - (1400 - 24)) <= 2 && info.width === info.scroller - 230,
    `trn2_48xl: the plot is ${info.width} px in a ${info.view.width} px view, not the window's width`);
  // Ticks: equal steps of 1, 2 or 5 times a power of ten, each label a multiple of it.
  const ticks = first.ticks.map((t) => parseFloat(t));
  const step = ticks[1] - ticks[0], mant = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
  expect(ticks.length >= 5 && [1, 2, 5].some((m) => Math.abs(mant - m) < 1e-6) &&
    ticks.every((t, i) => Math.abs(t - ticks[0] - i * step) < step * 1e-6 && Math.abs(t / step - Math.round(t / step)) < 1e-6),
    'trn2_48xl: ticks not round: ' + first.ticks.join(', '));

  // The zoom step, groups closed (as the page opens) and every group open.
  const closed = await zoomSteps(page);
  await page.click('#expand');
  await settle(page);
  const opened = await zoomSteps(page);
  const m1 = median(closed), m2 = median(opened);
  console.log(`view-check: trn2_48xl: zoom step, groups closed: median ${m1.toFixed(0)} ms [${fmt(closed)}]; ` +
    `all ${info.dataLanes} lanes open: median ${m2.toFixed(0)} ms [${fmt(opened)}]; goal <= ${GOAL_MS} ms: ` +
    `${Math.max(m1, m2) <= GOAL_MS ? 'met' : 'NOT met'}; page load ${loadMs} ms, ${fs.statSync(file).size} bytes`);

  // Zoomed in 12 steps at a third of the plot: the label column keeps no colour.
  await page.click('#zoom-reset');
  await page.evaluate(() => { const p = document.getElementById('plot'), r = p.getBoundingClientRect();
    for (let i = 0; i < 12; i++) p.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: r.left + 40, clientY: r.top + 100, bubbles: true, cancelable: true })); });
  await settle(page);
  img = decodePng(await page.screenshot());
  const label = { x: info.view.x + 1, y: info.plot.y + 28, width: 228, height: info.plot.height - 28 };
  const bleed = countPixels(img, label, isColour);
  expect(bleed === 0, `trn2_48xl: ${bleed} coloured pixels in the label column after zooming in`);

  // Pointing at an nrt_execute with flows draws those flows, and no other.
  await page.click('#zoom-reset');
  await settle(page);
  const src = await page.evaluate(() => {
    const T = window.ntsimTimeline, f = T.data.flows[0][0];
    return { m: f, n: T.data.flows.filter((x) => x[0] === f).length };
  });
  const at = await page.evaluate((m) => { const v = document.getElementById('plot').getBoundingClientRect(), p = window.ntsimTimeline.at(m);
    return { x: v.left - 230 + p.x + 2, y: v.top + p.y }; }, src.m);
  await page.mouse.move(at.x, at.y);
  await settle(page);
  const hover = await drawn(page);
  img = decodePng(await page.screenshot());
  const hoverPixels = countPixels(img, info.plot, isFlow);
  const detail = await page.evaluate(() => document.getElementById('detail').textContent);
  console.log(`view-check: trn2_48xl: pointing at an nrt_execute draws ${hover.overlayFlows} of its ${src.n} flows ` +
    `(${hoverPixels} flow-coloured pixels in the screenshot)`);
  expect(detail.startsWith('nrt_execute\nat +'), 'trn2_48xl: pointing shows ' + JSON.stringify(detail));
  expect(hover.overlayFlows === src.n && hover.flows === 0 && hoverPixels > 10, 'trn2_48xl: pointing does not draw its flows alone');
  await page.mouse.move(5, 5);
  await page.click('#flows');
  await settle(page);
  const all = await drawn(page);
  console.log(`view-check: trn2_48xl: "all flows" draws ${all.flows} of ${info.flows}`);
  expect(all.flows === info.flows, 'trn2_48xl: "all flows" does not draw them all');
});
// VIEW_CHECK_COMPARE=FILE: another page (an older build's) timed the same way
// in the same run, for docs/measurements.md; never judged.
if (process.env.VIEW_CHECK_COMPARE) {
  await withPage(async (page) => {
    const file = path.resolve(process.env.VIEW_CHECK_COMPARE), t0 = Date.now();
    await page.goto('file://' + file, { waitUntil: 'load', timeout: 300000 });
    await settle(page);
    const load = Date.now() - t0, steps = await zoomSteps(page);
    console.log(`view-check: compared: ${file} (${fs.statSync(file).size} bytes): zoom step median ` +
      `${median(steps).toFixed(0)} ms [${fmt(steps)}]; page load ${load} ms`);
  });
}
if (!failed) console.log('view-check: ok');
process.exit(failed);
