// The run timeline's state bands, generation numbers and consumer up/down
// bars (issue 10): drawn from the typed log up to the time reached.
import { expect, test, type Page } from "@playwright/test";
import { watchProblems } from "./problems";

const SHOTS = "../../target/e2e";
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

async function virtualMs(page: Page): Promise<number> {
  return Number(await page.getByTestId("virtual-time").first().getAttribute("data-ms"));
}

test("the timeline shows state bands, generations and A down during its restart", async ({ page }) => {
  const problems = watchProblems(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/?scenario=kip345-restart");
  const timeline = page.getByTestId("timeline");
  // Click far along the axis: the run plays ahead to there.
  for (let i = 0; i < 200 && (await virtualMs(page)) < 35_000; i++) {
    await button(page, "Next state").click();
  }
  const bands = timeline.getByTestId("timeline-band");
  expect(await bands.count()).toBeGreaterThanOrEqual(3);
  await expect(bands.first()).toHaveAttribute("data-state", "Empty");
  await expect(bands.last()).toHaveAttribute("data-state", "Stable");
  // KIP-345: A's restart makes no new generation.
  await expect(timeline.getByTestId("timeline-generation")).toHaveCount(1);
  await expect(timeline.getByTestId("timeline-generation")).toHaveText("g1");
  const a = timeline.locator('[data-testid="timeline-consumer"][data-name="A"]');
  await expect(a.getByTestId("timeline-up")).toHaveCount(2);
  await expect(a.getByTestId("timeline-up").first()).toHaveAttribute("data-to-ms", "20000");
  await expect(a.getByTestId("timeline-up").nth(1)).toHaveAttribute("data-from-ms", "28000");
  await expect(timeline.locator('[data-testid="timeline-consumer"][data-name="B"] [data-testid="timeline-up"]')).toHaveCount(1);
  // A band is drawn where its times say, and the markers stay.
  const box = (await bands.last().boundingBox())!;
  expect(box.width).toBeGreaterThan(10);
  expect(await timeline.getByTestId("timeline-marker").count()).toBeGreaterThan(0);

  // Clicking the bars jumps there (the left tenth of the run).
  const spans = timeline.locator(".run-spans");
  const sb = (await spans.boundingBox())!;
  await page.mouse.click(sb.x + sb.width * 0.1, sb.y + sb.height / 2);
  const end = Number(await timeline.getAttribute("data-end-ms"));
  expect(Math.abs((await virtualMs(page)) - end * 0.1)).toBeLessThan(end * 0.03);
  await timeline.screenshot({ path: `${SHOTS}/timeline-bands.png` });
  await page.screenshot({ path: `${SHOTS}/timeline-bands-page.png` });
  expect(problems).toEqual([]);
});
