/** The Volume provider: a local volume, on the machine of its offer (impl.ts serves both kinds). */
import type { ProviderImpl } from "../kit";
import { volumeProvider } from "./impl";

export const provider: ProviderImpl = volumeProvider("local", "Volume");
