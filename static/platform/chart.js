// Rating history charts, drawn in the page as SVG (no library, no CDN).
// Each `[data-rating-chart=ID]` element is filled from the JSON script #ID:
// [{match, at, mu, sigma, display, place, friendly, friendly_spread}, ...] oldest first.
// The line is the rating people read (`friendly`: 1500 + 40 x display); the band around it is
// that figure ± its spread (40 x sigma), so the band always surrounds the line it qualifies.
// Figures are formatted for the page's language (Intl.NumberFormat).

import { svg } from "./kit.js";

const W = 600, H = 220, PAD_L = 52, PAD_R = 12, PAD_T = 12, PAD_B = 26;
const BASE = 1500, SCALE = 40; // replays/ratings.py FRIENDLY_BASE, FRIENDLY_SCALE (for points stored before `friendly`)

export function niceRange(values) {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

/** The figure, the band's low and high edge of one history point. */
export function figures(p) {
  const value = Number.isFinite(p.friendly) ? p.friendly : Math.round(BASE + SCALE * p.display);
  const spread = Number.isFinite(p.friendly_spread) ? p.friendly_spread : Math.round(SCALE * p.sigma);
  return { value, low: value - spread, high: value + spread, spread };
}

export function drawChart(root, points, i18n = {}) {
  root.replaceChildren();
  if (!points.length) return null;
  const lang = document.documentElement.lang || undefined;
  const num = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  const f = points.map(figures);
  const [lo, hi] = niceRange([...f.map((q) => q.low), ...f.map((q) => q.high)]);
  const n = points.length;
  const x = (i) => PAD_L + (n === 1 ? (W - PAD_L - PAD_R) / 2 : (i * (W - PAD_L - PAD_R)) / (n - 1));
  const y = (v) => PAD_T + ((hi - v) * (H - PAD_T - PAD_B)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "data-points": n });
  chart.append(svg("title", { text: `${i18n.rating || "Rating"}: ${num.format(f[n - 1].value)} ± ${num.format(f[n - 1].spread)}` }));
  chart.append(svg("line", { class: "axis", x1: PAD_L, y1: PAD_T, x2: PAD_L, y2: H - PAD_B }));
  chart.append(svg("line", { class: "axis", x1: PAD_L, y1: H - PAD_B, x2: W - PAD_R, y2: H - PAD_B }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    chart.append(svg("text", { x: PAD_L - 6, y: y(v) + 4, "text-anchor": "end", text: num.format(v) }));
  }
  chart.append(svg("text", { x: PAD_L, y: H - 8, text: `${i18n.match || "Match"} #${points[0].match}` }));
  chart.append(svg("text", { x: W - PAD_R, y: H - 8, "text-anchor": "end", text: `#${points[n - 1].match}` }));
  // One point: a short band and line, so a single match still shows a band around its figure.
  const xs = n === 1 ? [x(0) - 20, x(0) + 20] : null;
  const at = (i, j) => (xs ? xs[j] : x(i));
  const series = xs ? [0, 0] : f.map((_, i) => i);
  const band = series.map((i, j) => `${at(i, j)},${y(f[i].high)}`)
    .concat(series.map((i, j) => `${at(i, j)},${y(f[i].low)}`).reverse());
  const poly = svg("polygon", { class: "band", "data-testid": "rating-band", points: band.join(" ") });
  poly.append(svg("title", { text: i18n.band || "likely range" }));
  chart.append(poly);
  chart.append(svg("polyline", { class: "line", "data-testid": "rating-line", points: series.map((i, j) => `${at(i, j)},${y(f[i].value)}`).join(" ") }));
  if (n <= 60) {
    f.forEach((q, i) => {
      const dot = svg("circle", { class: "dot", cx: x(i), cy: y(q.value), r: 3 });
      dot.append(svg("title", { text: `#${points[i].match}: ${num.format(q.value)} ± ${num.format(q.spread)}` }));
      chart.append(dot);
    });
  }
  root.append(chart);
  return chart;
}

export function drawAll(doc = document) {
  for (const root of doc.querySelectorAll("[data-rating-chart]")) {
    const source = doc.getElementById(root.dataset.ratingChart);
    const points = source ? JSON.parse(source.textContent) : [];
    drawChart(root, points, window.CHART_I18N || {});
  }
}

drawAll();
