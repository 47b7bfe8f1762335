// Rating history charts, drawn in the page as SVG (no library, no CDN).
// Each `[data-rating-chart=ID]` element is filled from the JSON script #ID:
// [{match, at, mu, sigma, display, place}, ...] oldest first. The line is the
// displayed (conservative) rating; the band is mu ± sigma.

const SVG = "http://www.w3.org/2000/svg";
const W = 600, H = 220, PAD_L = 44, PAD_R = 12, PAD_T = 12, PAD_B = 26;

function node(tag, attrs = {}, text = null) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== null) n.textContent = text;
  return n;
}

function niceRange(values) {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

export function drawChart(root, points, i18n = {}) {
  root.replaceChildren();
  if (!points.length) return null;
  const lows = points.map((p) => p.mu - p.sigma), highs = points.map((p) => p.mu + p.sigma);
  const [lo, hi] = niceRange([...lows, ...highs, ...points.map((p) => p.display)]);
  const n = points.length;
  const x = (i) => PAD_L + (n === 1 ? (W - PAD_L - PAD_R) / 2 : (i * (W - PAD_L - PAD_R)) / (n - 1));
  const y = (v) => PAD_T + ((hi - v) * (H - PAD_T - PAD_B)) / (hi - lo);
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "data-points": n });
  svg.append(node("title", {}, i18n.rating || "Rating"));
  svg.append(node("line", { class: "axis", x1: PAD_L, y1: PAD_T, x2: PAD_L, y2: H - PAD_B }));
  svg.append(node("line", { class: "axis", x1: PAD_L, y1: H - PAD_B, x2: W - PAD_R, y2: H - PAD_B }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(node("text", { x: PAD_L - 6, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(1)));
  }
  svg.append(node("text", { x: PAD_L, y: H - 8 }, `${i18n.match || "Match"} #${points[0].match}`));
  svg.append(node("text", { x: W - PAD_R, y: H - 8, "text-anchor": "end" }, `#${points[n - 1].match}`));
  const band = points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse());
  svg.append(node("polygon", { class: "band", points: band.join(" ") }));
  svg.append(node("polyline", { class: "line", "data-testid": "rating-line", points: points.map((p, i) => `${x(i)},${y(p.display)}`).join(" ") }));
  if (n <= 60) {
    points.forEach((p, i) => {
      const dot = node("circle", { class: "dot", cx: x(i), cy: y(p.display), r: 3 });
      dot.append(node("title", {}, `#${p.match}: ${p.display.toFixed(2)} (μ ${p.mu.toFixed(2)}, σ ${p.sigma.toFixed(2)})`));
      svg.append(dot);
    });
  }
  root.append(svg);
  return svg;
}

export function drawAll(doc = document) {
  for (const root of doc.querySelectorAll("[data-rating-chart]")) {
    const source = doc.getElementById(root.dataset.ratingChart);
    const points = source ? JSON.parse(source.textContent) : [];
    drawChart(root, points, window.CHART_I18N || {});
  }
}

drawAll();
