// Shared by the e2e specs: how large an SVG drawing's text is on screen
// (its CSS font size times the drawing's scale), and whether labels collide.
import type { Locator } from "@playwright/test";

/** The smallest on-screen font size (CSS px) of the texts `selector` names inside `svg`. */
export async function smallestDrawnText(svg: Locator, selector: string): Promise<number> {
  return svg.evaluate((el, sel) => {
    const drawing = el as SVGSVGElement;
    const scale = drawing.getBoundingClientRect().width / drawing.viewBox.baseVal.width;
    const sizes = [...drawing.querySelectorAll(sel)].map(
      (t) => parseFloat(getComputedStyle(t).fontSize) * scale,
    );
    return sizes.length ? Math.min(...sizes) : 0;
  }, selector);
}

/** Pairs of the texts `selector` names inside `svg` whose boxes overlap. */
export async function overlappingTexts(svg: Locator, selector: string): Promise<string[]> {
  return svg.evaluate((el, sel) => {
    const boxes = [...el.querySelectorAll(sel)].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
    const hits: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const apart =
          a.box.right <= b.box.left || b.box.right <= a.box.left ||
          a.box.bottom <= b.box.top || b.box.bottom <= a.box.top;
        if (!apart) hits.push(`${a.text} / ${b.text}`);
      }),
    );
    return hits;
  }, selector);
}
