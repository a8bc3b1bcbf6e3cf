/**
 * jsdom has no canvas; echarts (drawn as SVG here) still measures label text on a 2D context. A context
 * that measures text by length is enough for it, and keeps "not implemented" noise out of the output.
 * Returns the function that puts the original back.
 */
export function measureTextOnCanvas(): () => void {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext() {
    return { font: '12px sans-serif', measureText: (text: string) => ({ width: text.length * 7 }) };
  } as unknown as typeof original;
  return () => {
    HTMLCanvasElement.prototype.getContext = original;
  };
}
