/**
 * The zod form of kit/text.ts's rule, apart from the kit's barrel: the barrel is reached from
 * public declarations, which must not reach zod's types (a user's default tsconfig cannot
 * compile them).
 */
import type { z } from "zod";
import { controlCharacterProblem } from "./text";

/** A string without control characters (see controlCharacterProblem). */
export function withoutControlCharacters<S extends z.ZodType<string>>(schema: S): S {
  return schema.superRefine((text, ctx) => {
    const problem = controlCharacterProblem(text);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }) as unknown as S;
}

