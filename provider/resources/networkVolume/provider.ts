/** The NetworkVolume provider: a volume served over a cluster's network (../volume/impl.ts serves both kinds). */
import type { ProviderImpl } from "../kit";
import { volumeProvider } from "../volume/impl";

export const provider: ProviderImpl = volumeProvider("network", "NetworkVolume");
