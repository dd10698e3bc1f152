// What a story changes fits the first screen at 1280×800 (UI-DESIGN.md,
// "The first minute"; issue 10): the group's state, the static member map,
// the assignment grid and the narration, with Play and Compare in reach.
import { expect, test, type Page } from "@playwright/test";

async function onFirstScreen(page: Page, testid: string) {
  const box = await page.getByTestId(testid).first().boundingBox();
  expect(box, testid).toBeTruthy();
  expect(box!.y, `${testid} starts on the first screen`).toBeLessThan(800 - 24);
}

for (const scenario of ["kip345-restart", "rolling-restart-static"]) {
  test(`${scenario}: state, map, grid and narration are on the first screen at 1280×800`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/?scenario=${scenario}`);
    for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Next state", exact: true }).click();
    for (const id of ["group-state", "instance-map", "assignment", "narration"]) await onFirstScreen(page, id);
    // The first row of the map and of the grid, not only their edges.
    expect((await page.getByTestId("instance-row").first().boundingBox())!.y).toBeLessThan(800 - 30);
    expect((await page.getByTestId("partition").first().boundingBox())!.y).toBeLessThan(800 - 30);
    for (const name of ["Play", "Compare static vs dynamic"]) {
      const b = await page.getByRole("button", { name, exact: true }).boundingBox();
      expect(b!.y + b!.height, name).toBeLessThanOrEqual(800);
    }
    await page.screenshot({ path: `../../target/e2e/first-screen-${scenario}.png` });
  });
}
