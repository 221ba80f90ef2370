/** Builds the starting state from the seed facts (also used by `POST /_sim/reset`). */
import { emptyNetworkData } from "../store/network-types";
import { templateHash } from "../domain/template-hash";
import type { ApiKeyRecord, SimData, TemplateRecord, UserRecord } from "../store/types";
import { SEED } from "./seed";
import { emptyVolumeData } from "../store/volume-types";
import { emptyServerless } from "../store/serverless-types";
import { emptyTeamData } from "../store/team-types";

// 2025-01-01T00:00:00Z: seed objects look like they were made before the simulator started.
const SEED_TIME = 1735689600000;

function users(): UserRecord[] {
  const owner = SEED.user;
  return [
    { id: owner.id, email: owner.email, username: owner.username, approvedForSubaccounts: true, parentId: null },
    ...SEED.subaccounts.map((s) => sub(s.userId, s.email)),
    sub(SEED.subaccountWithoutKey.userId, SEED.subaccountWithoutKey.email),
    {
      id: SEED.unapprovedUser.id,
      email: SEED.unapprovedUser.email,
      username: "sim-solo",
      approvedForSubaccounts: false,
      parentId: null,
    },
  ];
}

function sub(id: number, email: string): UserRecord {
  return { id, email, username: email.split("@")[0], approvedForSubaccounts: false, parentId: SEED.user.id };
}

function apiKeys(ownerKey: string): ApiKeyRecord[] {
  const key = (id: number, userId: number, name: string, value: string): ApiKeyRecord => ({
    id, userId, name, key: value, permissions: null, primary: true, createdAt: SEED_TIME, deletedAt: null,
  });
  return [
    key(1, SEED.user.id, "primary", ownerKey),
    ...SEED.subaccounts.map((s, i) => key(2 + i, s.userId, "subaccount", s.apiKey)),
    key(4, SEED.unapprovedUser.id, "primary", SEED.unapprovedUser.apiKey),
  ];
}

function publicTemplates(): TemplateRecord[] {
  return SEED.publicTemplates.map((t, i) => {
    const fields: Record<string, unknown> = {
      name: t.name,
      image: t.image,
      tag: t.tag,
      desc: `${t.name} image`,
      env: i === 1 ? "-e MODEL=facebook/opt-125m -p 8000:8000" : "-p 22:22",
      onstart: "",
      runtype: i === 3 ? "jupyter" : "ssh",
      ssh_direct: true,
      use_ssh: true,
      jup_direct: i === 3,
      use_jupyter_lab: i === 3,
      docker_login_repo: "",
      docker_login_user: "",
      docker_login_pass: "",
      recommended_disk_space: 16,
      private: false,
    };
    return {
      id: t.id,
      hashId: templateHash(SEED.marketUserId, fields),
      creatorId: SEED.marketUserId,
      createdAt: SEED_TIME,
      countCreated: 1000 * (4 - i),
      recentCreateDate: SEED_TIME,
      recommended: true,
      fields,
    };
  });
}

export function initialState(ownerKey: string): SimData {
  return {
    users: users(),
    apiKeys: apiKeys(ownerKey),
    sshKeys: [],
    secrets: [],
    templates: publicTemplates(),
    instances: [],
    maintenances: [],
    offerStates: {},
    nextBoot: null,
    volumes: emptyVolumeData(),
    serverless: emptyServerless(),
    nextIds: { apiKey: 100, sshKey: 1, template: 1001, instance: 8000001, maintenance: 1, webhook: 1 },
    webhooks: [],
    networks: emptyNetworkData(),
    endedContracts: [],
    endedVolumes: [],
    teams: emptyTeamData(),
  };
}
