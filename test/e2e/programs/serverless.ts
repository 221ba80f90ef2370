/**
 * A program with the resources no example declares: a Volume, a Template with registry
 * credentials and a secret env value, an Endpoint with a WorkerGroup on that template, and a
 * Webhook. Its secrets are known to the test, which looks for them in the stack export.
 */
import * as pulumi from "@pulumi/pulumi";
import { Endpoint, Template, Volume, Webhook, WorkerGroup } from "pulumi-vastai";

export const REGISTRY_PASSWORD = "registry-pass-5e1f09";
export const ENV_SECRET = "env-secret-77c2aa";

export function serverlessProgram() {
  return async () => {
    const data = new Volume("data", { offer: { location: "US", maxPricePerGbMonth: 0.15 }, sizeGb: 50, name: "data" });
    const template = new Template("worker", {
      name: "e2e-worker",
      image: "registry.example.com/team/worker",
      tag: "1.0",
      runtype: "args",
      dockerLoginRepo: "registry.example.com",
      dockerLoginUser: "ci",
      dockerLoginPass: REGISTRY_PASSWORD,
      env: { MODEL_TOKEN: pulumi.secret(ENV_SECRET) },
      recommendedDiskSpaceGb: 20,
    });
    const endpoint = new Endpoint("llm", { name: "e2e-llm", maxWorkers: 4 });
    const group = new WorkerGroup("llm-workers", { endpointId: endpoint.id, templateHash: template.hashId, testWorkers: 1 });
    const hook = new Webhook("ops", { name: "ops", url: "https://ops.example.com/vast", eventTypes: ["client:low_credit"] });
    return {
      volumeId: data.volumeId,
      endpointId: endpoint.endpointId,
      workerGroupId: group.workerGroupId,
      endpointApiKey: endpoint.apiKey,
      webhookSecret: hook.secret,
    };
  };
}
