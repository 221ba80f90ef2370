/** What a team resource registers as its provider: loads the implementation by package name at call time (kit/loader.ts). */
import { loaderFor } from "../kit/loader";

export = loaderFor("team");
