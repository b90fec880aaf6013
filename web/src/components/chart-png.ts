/**
 * Charts as PNG images, drawn on a canvas in the browser (no library): the line chart's own
 * uPlot canvas with its title and legend added, and the matchup heatmap drawn from its numbers.
 * White background and dark ink whatever the page's colour scheme, so the file reads anywhere.
 */

const INK = '#1d2430';
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

function blank(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width);
  canvas.height = Math.ceil(height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = INK;
  ctx.textBaseline = 'middle';
  return [canvas, ctx];
}

export interface LegendEntry {
  label: string;
  colour: string;
  dashed: boolean;
}

/** The line chart's plot (its uPlot canvas), a title above and the legend below. */
export function lineChartPng(
  plot: HTMLCanvasElement,
  title: string,
  legend: LegendEntry[],
): HTMLCanvasElement {
  const scale = plot.width / (plot.clientWidth || plot.width);
  const line = 22 * scale;
  const perRow = Math.max(1, Math.floor(plot.width / (200 * scale)));
  const rows = Math.ceil(legend.length / perRow);
  const [canvas, ctx] = blank(plot.width, plot.height + line * (rows + 2));
  ctx.font = `600 ${15 * scale}px ${FONT}`;
  ctx.fillText(title, 10 * scale, line / 2 + 4 * scale);
  ctx.drawImage(plot, 0, line * 1.2);
  ctx.font = `${13 * scale}px ${FONT}`;
  legend.forEach((entry, i) => {
    const x = (i % perRow) * 200 * scale + 10 * scale;
    const y = plot.height + line * 1.2 + line * (Math.floor(i / perRow) + 0.6);
    ctx.strokeStyle = entry.colour;
    ctx.lineWidth = 3 * scale;
    ctx.setLineDash(entry.dashed ? [8 * scale, 4 * scale] : []);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 24 * scale, y);
    ctx.stroke();
    ctx.fillStyle = INK;
    ctx.fillText(entry.label, x + 30 * scale, y);
  });
  return canvas;
}

export interface HeatCell {
  rate: number | null;
  colour: string;
  light: boolean;
}

/** The heatmap: row names at the left, column names slanted above, each cell its rate in %. */
export function heatmapPng(
  title: string,
  names: string[],
  cell: (row: number, col: number) => HeatCell | undefined,
): HTMLCanvasElement {
  const size = 40;
  const left = 170;
  const top = 150;
  const [canvas, ctx] = blank(left + size * names.length + 20, top + size * names.length + 20);
  ctx.font = `600 15px ${FONT}`;
  ctx.fillText(title, 10, 16);
  ctx.font = `12px ${FONT}`;
  names.forEach((name, i) => {
    ctx.fillStyle = INK;
    ctx.textAlign = 'right';
    ctx.fillText(name, left - 8, top + size * i + size / 2, left - 12);
    ctx.save();
    ctx.translate(left + size * i + size / 2, top - 8);
    ctx.rotate(-Math.PI / 3);
    ctx.textAlign = 'left';
    ctx.fillText(name, 0, 0, top - 20);
    ctx.restore();
  });
  ctx.textAlign = 'center';
  names.forEach((_, r) =>
    names.forEach((__, c) => {
      const value = cell(r, c);
      if (value === undefined || value.rate === null) return;
      ctx.fillStyle = value.colour;
      ctx.fillRect(left + size * c + 1, top + size * r + 1, size - 2, size - 2);
      ctx.fillStyle = value.light ? '#ffffff' : INK;
      ctx.fillText(
        String(Math.round(value.rate * 100)),
        left + size * c + size / 2,
        top + size * r + size / 2,
      );
    }),
  );
  return canvas;
}
