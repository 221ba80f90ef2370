import { runExample, type ExampleRun } from "./run-example";

let run: ExampleRun;

beforeAll(async () => {
  run = await runExample({
    project: "vastai-host-maintenance",
    config: { "vastai-host-maintenance:startTime": "2030-07-01T02:00:00Z" },
    load: () => require("../../examples/host-maintenance/index"),
  });
});

test("schedules one window over every machine in the list (more than 100)", () => {
  const windows = run.ofType("MaintenanceWindow");
  expect(windows.map((w) => w.name)).toEqual(["hall-b-power"]);
  const ids = windows[0].inputs.machineIds as number[];
  expect(ids).toHaveLength(150);
  expect(new Set(ids).size).toBe(150);
  expect(ids[0]).toBe(50001);
  expect(ids[149]).toBe(50150);
});

test("takes start, length and category from the configuration and defaults", () => {
  expect(run.get("MaintenanceWindow", "hall-b-power").inputs).toMatchObject({
    startTime: "2030-07-01T02:00:00Z",
    durationHours: 4,
    category: "power",
    allowPartial: false,
  });
});

test("exports how many machines were scheduled", () => {
  expect(run.outputs.machines).toBe(150);
  expect(run.outputs.scheduled).toBe(150);
});
