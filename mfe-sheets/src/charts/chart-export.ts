/**
 * Download PNG / SVG of a chart (issue 20). The drawing's colours are theme variables: the copy
 * gets each element's computed fill, stroke and font inlined, so the file looks the same outside
 * the page.
 */
const INLINED = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'fill-opacity', 'stroke-opacity', 'opacity', 'font-family', 'font-size', 'font-weight'];

/** A standalone SVG document of `svg`, with `title` drawn above it when there is one. */
export function standaloneSvg(svg: SVGSVGElement, title: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const source = [svg, ...svg.querySelectorAll('*')];
  const target = [clone, ...clone.querySelectorAll('*')];
  source.forEach((el, i) => {
    const computed = getComputedStyle(el);
    const style = INLINED.map((p) => `${p}:${computed.getPropertyValue(p)}`).filter((s) => !s.endsWith(':')).join(';');
    if (style) target[i].setAttribute('style', `${target[i].getAttribute('style') ?? ''};${style}`);
  });
  const width = Number(svg.getAttribute('width')) || svg.clientWidth;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight;
  const top = title ? 28 : 0;
  const doc = document.implementation.createDocument('http://www.w3.org/2000/svg', 'svg', null);
  const root = doc.documentElement;
  root.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  root.setAttribute('width', String(width));
  root.setAttribute('height', String(height + top));
  root.setAttribute('viewBox', `0 0 ${width} ${height + top}`);
  const background = doc.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#ffffff');
  root.appendChild(background);
  if (title) {
    const text = doc.createElementNS('http://www.w3.org/2000/svg', 'text');
    text.setAttribute('x', String(width / 2));
    text.setAttribute('y', '20');
    text.setAttribute('text-anchor', 'middle');
    text.setAttribute('style', 'font: 600 14px sans-serif; fill: #111');
    text.textContent = title;
    root.appendChild(text);
  }
  const group = doc.createElementNS('http://www.w3.org/2000/svg', 'g');
  group.setAttribute('transform', `translate(0 ${top})`);
  for (const child of [...clone.childNodes]) group.appendChild(doc.importNode(child, true));
  root.appendChild(group);
  return new XMLSerializer().serializeToString(doc);
}

function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name from the chart's title ('chart' without one). */
export const chartFileName = (title: string, ext: 'png' | 'svg') => `${(title.trim() || 'chart').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').slice(0, 100)}.${ext}`;

export function downloadSvg(svg: SVGSVGElement, title: string): void {
  save(new Blob([standaloneSvg(svg, title)], { type: 'image/svg+xml' }), chartFileName(title, 'svg'));
}

/** The SVG drawn on a canvas at twice its size (sharp on high-density screens), saved as PNG. */
export async function downloadPng(svg: SVGSVGElement, title: string): Promise<void> {
  const text = standaloneSvg(svg, title);
  const image = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('The chart could not be drawn'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = image.width * 2;
    canvas.height = image.height * 2;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No canvas');
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (blob) save(blob, chartFileName(title, 'png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
