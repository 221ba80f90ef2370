import { setWarningSink, type WarningSink } from "../../provider/resources/kit/warn";

/** The provider warnings of the running test: emptied before each test, the previous sink back after it. */
export function useWarnings(): string[] {
  const warnings: string[] = [];
  let previous: WarningSink | undefined;
  beforeEach(() => {
    warnings.length = 0;
    previous = setWarningSink((m) => warnings.push(m));
  });
  afterEach(() => setWarningSink(previous));
  return warnings;
}
