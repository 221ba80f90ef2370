/**
 * The MaintenanceWindow class under Pulumi mocks: the type token, the serialized provider,
 * inputs registered with their defaults left to check, and outputs that keep what the
 * provider returns (declared, so they are not wiped after construction).
 */
import * as pulumi from "@pulumi/pulumi";
import { MaintenanceWindow } from "pulumi-vastai";

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(() =>
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        const state = { ...args.inputs, maintenanceIds: [7, 8], notificationsSent: 3, status: "scheduled", endTime: "2030-07-01T05:00:00.000Z" };
        return { id: "mw-1", state };
      },
      call: (args) => args.inputs,
    },
    "proj",
    "dev",
  ),
);

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("MaintenanceWindow class", () => {
  let window: MaintenanceWindow;

  beforeAll(async () => {
    window = new MaintenanceWindow("swap", { machineIds: [50001, 50002], startTime: "2030-07-01T02:00:00Z", durationHours: 3, category: "disk" });
    await value(window.urn);
  });

  it("registers the dynamic type token, the serialized provider and the inputs", () => {
    const args = registered.find((r) => r.name === "swap")!;
    expect(args.type).toBe("pulumi-nodejs:dynamic/vastai:MaintenanceWindow");
    expect(typeof args.inputs.__provider).toBe("string");
    expect(args.inputs).toMatchObject({ machineIds: [50001, 50002], startTime: "2030-07-01T02:00:00Z", durationHours: 3, category: "disk" });
  });

  it("declares outputs that keep the values the provider returns", async () => {
    expect(await value(window.id)).toBe("mw-1");
    expect(await value(window.maintenanceIds)).toEqual([7, 8]);
    expect(await value(window.notificationsSent)).toBe(3);
    expect(await value(window.status)).toBe("scheduled");
    expect(await value(window.endTime)).toBe("2030-07-01T05:00:00.000Z");
    expect(await value(window.category)).toBe("disk");
  });
});
