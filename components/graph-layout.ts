/**
 * A small force-directed layout (Fruchterman-Reingold) for at most a few hundred nodes: repulsion between
 * every pair, attraction along edges, cooling each step. Deterministic: nodes start on a circle.
 */
export function forceLayout(
  ids: string[],
  edges: { source: string; target: string }[],
  iterations = 250,
): Map<string, { x: number; y: number }> {
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  ids.forEach((_, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n);
    x[i] = Math.cos(angle) * 10;
    y[i] = Math.sin(angle) * 10;
  });
  const k = Math.sqrt(400 / Math.max(1, n));
  const links = edges
    .map((e) => [index.get(e.source), index.get(e.target)])
    .filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined);
  let temperature = 2;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let step = 0; step < iterations; step++) {
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const ddx = x[i]! - x[j]!;
        const ddy = y[i]! - y[j]!;
        const dist = Math.max(0.01, Math.hypot(ddx, ddy));
        const force = (k * k) / dist;
        dx[i]! += (ddx / dist) * force;
        dy[i]! += (ddy / dist) * force;
        dx[j]! -= (ddx / dist) * force;
        dy[j]! -= (ddy / dist) * force;
      }
    }
    for (const [a, b] of links) {
      const ddx = x[a]! - x[b]!;
      const ddy = y[a]! - y[b]!;
      const dist = Math.max(0.01, Math.hypot(ddx, ddy));
      const force = (dist * dist) / k;
      dx[a]! -= (ddx / dist) * force;
      dy[a]! -= (ddy / dist) * force;
      dx[b]! += (ddx / dist) * force;
      dy[b]! += (ddy / dist) * force;
    }
    for (let i = 0; i < n; i++) {
      const length = Math.max(0.01, Math.hypot(dx[i]!, dy[i]!));
      x[i]! += (dx[i]! / length) * Math.min(length, temperature);
      y[i]! += (dy[i]! / length) * Math.min(length, temperature);
    }
    temperature = Math.max(0.02, temperature * 0.98);
  }
  return new Map(ids.map((id, i) => [id, { x: x[i]!, y: y[i]! }]));
}
