/**
 * Facts about the simulator's starting state that tests, benchmarks and the demo rely on.
 * Every value here is fixed: a fresh simulator (or one after `POST /_sim/reset`) always
 * holds exactly these accounts, keys and objects.
 */
import { HOST_NETWORK_DISKS } from "./network-disks";
import { MARKET_CLUSTERS } from "./market-clusters";
import { OFFER_SEEDS, type OfferSeed } from "./offers";

/** API key of the default account when `startSimulator` is given none. */
export const DEFAULT_API_KEY = "sim-default-api-key";

const HOSTED_MACHINE_FIRST_ID = 50001;
const HOSTED_MACHINE_COUNT = 160;

/** The simulator's seeded accounts, keys, templates, machines and offers. */
export const SEED = {
  /** The default account: owner of the default key, approved for subaccounts, host of machines. */
  user: { id: 10001, email: "owner@example.com", username: "sim-owner" },
  apiKey: DEFAULT_API_KEY,
  /** Subaccounts of the default account with an active key each (the key authenticates as them). */
  subaccounts: [
    { userId: 10002, email: "build-bot@example.com", apiKey: "sim-subaccount-10002-key" },
    { userId: 10003, email: "ci-runner@example.com", apiKey: "sim-subaccount-10003-key" },
  ],
  /** A subaccount of the default account that has no active key (regenerate gives 404). */
  subaccountWithoutKey: { userId: 10004, email: "retired@example.com" },
  /** A second account that is NOT approved for subaccounts (regenerate gives 403). */
  unapprovedUser: { id: 20001, email: "solo@example.com", apiKey: "sim-unapproved-api-key" },
  /** The account that publishes the public templates and hosts the offered machines. */
  marketUserId: 1,
  /** Public templates anyone can search and create instances from. */
  publicTemplates: [
    { id: 101, name: "PyTorch (CUDA)", image: "pytorch/pytorch", tag: "2.4.0-cuda12.4-cudnn9-runtime" },
    { id: 102, name: "vLLM OpenAI server", image: "vllm/vllm-openai", tag: "v0.6.3" },
    { id: 103, name: "Ubuntu SSH", image: "ubuntu", tag: "22.04" },
    { id: 104, name: "Jupyter Lab", image: "jupyter/base-notebook", tag: "latest" },
  ],
  /** Machines hosted by the default account: ids firstId .. firstId + count - 1. */
  hostedMachines: { firstId: HOSTED_MACHINE_FIRST_ID, count: HOSTED_MACHINE_COUNT },
  hostedMachineIds: Array.from({ length: HOSTED_MACHINE_COUNT }, (_, i) => HOSTED_MACHINE_FIRST_ID + i),
  /** Network disks the default account hosts (`list network volume` names one), with their cluster and GB. */
  hostNetworkDisks: HOST_NETWORK_DISKS,
  /** A machine that exists but is owned by another host (maintenance reports not_found). */
  foreignMachineId: 30001,
  /** Offers on the market, rentable many times over unless the control API changes them. */
  offers: OFFER_SEEDS as readonly OfferSeed[],
  offerIds: OFFER_SEEDS.map((o) => o.id),
  /** Clusters of the market's hosts (offers show their `cluster_id`; any account may put an overlay on them). */
  marketClusters: MARKET_CLUSTERS,
  /** A deployment of the default account; versions are listed newest first. */
  deployment: { id: 3101, versionIds: [9003, 9002, 9001] },
  /** A deployment of another account (404 for the default account). */
  foreignDeploymentId: 3201,
  /** A serverless worker group of the default account with `logLines` lines of logs. */
  workerGroup: { id: 501, logLines: 200 },
  /** Autoscaler templates of the default account, and the globally recommended ones. */
  autoscalerTemplateIds: [201, 202],
  recommendedAutoscalerTemplateIds: [301, 302, 303],
} as const;

/** The type of `SEED`. */
export type SimulatorSeed = typeof SEED;
