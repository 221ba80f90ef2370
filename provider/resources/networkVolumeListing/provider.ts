/** The provider behind `NetworkVolumeListing`: VolumeListing's (volumeListing/provider.ts) on a network disk. */
import { NETWORK } from "../volumeListing/inputs";
import { listingProvider } from "../volumeListing/provider";

export const provider = listingProvider(NETWORK);
